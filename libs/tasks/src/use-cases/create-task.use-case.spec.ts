import { DomainError } from '@gen/core';
import { DEFAULT_RETENTION_SECONDS } from '../domain/task-options';
import { parseRetention } from './create-task.use-case';

describe('X-Service-Retention', () => {
  it('defaults to 14 days and only ever shortens it', () => {
    expect(parseRetention(undefined)).toBe(DEFAULT_RETENTION_SECONDS);
    expect(parseRetention('60')).toBe(60);
    expect(parseRetention(String(DEFAULT_RETENTION_SECONDS * 10))).toBe(DEFAULT_RETENTION_SECONDS);
  });

  it('refuses anything but whole seconds above 0', () => {
    for (const bad of ['0', '-5', '1.5', 'abc', '', '1e3', '0x10']) {
      expect(() => parseRetention(bad)).toThrow(DomainError);
    }
  });
});
