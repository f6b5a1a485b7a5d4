import { errorKindForStatus, retryAfterMs, retryDelayMs } from './upstream-error';

describe('upstream error helpers', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads Retry-After as seconds or an HTTP date, and prefers retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), now)).toBe(4000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': '9', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
    expect(retryDelayMs('{"details":[{"retryDelay": "2.5s"}]}')).toBe(2500);
    expect(retryDelayMs('{"details":[]}')).toBeUndefined();
  });

  it('classifies statuses: 429/5xx retryable, 400 refusals rejected, other 4xx failed', () => {
    expect([429, 500, 502, 503, 529].map((s) => errorKindForStatus(s, ''))).toEqual(
      Array(5).fill('retryable'),
    );
    expect(errorKindForStatus(400, '{"code":"content_policy_violation"}')).toBe('rejected');
    expect(errorKindForStatus(400, 'Invalid value at safety_settings[0]')).toBe('failed');
    expect(errorKindForStatus(403, 'content policy')).toBe('failed');
    expect([401, 404, 422].map((s) => errorKindForStatus(s, ''))).toEqual(Array(3).fill('failed'));
  });
});
