import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { type DomainError } from '@gen/core';
import { randomBytes } from 'node:crypto';
import { QUOTE_VALIDITY_MS, signQuote } from '../domain/quote-token';
import type { PreparedRequest } from '../domain/prepare-task-request';
import { checkQuote } from './quote-task.use-case';

const key = randomBytes(32);
const principal: ApiKeyPrincipal = {
  accountId: 'acc_1',
  keyId: 'key_1',
  language: null,
  group: 'default',
  priceMultiplier: '1',
  dailySpendCap: '10',
};
const prepared: PreparedRequest = {
  model: 'local/sketch',
  modality: 'image',
  input: { prompt: 'x' },
  fingerprint: 'f'.repeat(64),
  estimate: '0.004',
  mediaInputs: [],
  callbackUrl: null,
  requestHash: 'a'.repeat(64),
};
const issued = new Date('2026-11-23T10:00:00Z');
const quoteId = signQuote(
  {
    accountId: 'acc_1',
    keyId: 'key_1',
    request: prepared.requestHash,
    price: '0.004',
    maxCharge: '0.004',
    expiresAt: issued.getTime() + QUOTE_VALIDITY_MS,
  },
  key,
);
const request = { model: 'local/sketch', input: {}, quoteId, expectedCost: '0.004' };

function outcome(fn: () => void): number | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe('checkQuote', () => {
  it('passes a quote of this account, key and request, within five minutes, at the confirmed price', () => {
    expect(outcome(() => checkQuote(request, prepared, principal, key, issued))).toBe('ok');
    const justBefore = new Date(issued.getTime() + QUOTE_VALIDITY_MS - 1);
    expect(outcome(() => checkQuote(request, prepared, principal, key, justBefore))).toBe('ok');
    // The same decimal written differently is the same price.
    expect(
      outcome(() => checkQuote({ ...request, expectedCost: '0.0040' }, prepared, principal, key, issued)),
    ).toBe('ok');
  });

  it('is 40901 once expired, for another key or account, another request, another price, or a new estimate', () => {
    const expired = new Date(issued.getTime() + QUOTE_VALIDITY_MS);
    const cases: (() => void)[] = [
      () => checkQuote(request, prepared, principal, key, expired),
      () => checkQuote(request, prepared, { ...principal, keyId: 'key_2' }, key, issued),
      () => checkQuote(request, prepared, { ...principal, accountId: 'acc_2' }, key, issued),
      () => checkQuote(request, { ...prepared, requestHash: 'b'.repeat(64) }, principal, key, issued),
      () => checkQuote({ ...request, expectedCost: '0.003' }, prepared, principal, key, issued),
      () => checkQuote(request, { ...prepared, estimate: '0.005' }, principal, key, issued),
      () => checkQuote(request, prepared, principal, randomBytes(32), issued),
    ];
    for (const fn of cases) expect(outcome(fn)).toBe(BusinessCode.QuoteExpiredOrChanged);
  });

  it('does nothing without a quote, and is 400 with only one of the two fields', () => {
    expect(outcome(() => checkQuote({ model: 'm', input: {} }, prepared, principal, key, issued))).toBe('ok');
    expect(
      outcome(() => checkQuote({ model: 'm', input: {}, quoteId }, prepared, principal, key, issued)),
    ).toBe(400);
    expect(
      outcome(() =>
        checkQuote({ model: 'm', input: {}, expectedCost: '1' }, prepared, principal, key, issued),
      ),
    ).toBe(400);
  });
});
