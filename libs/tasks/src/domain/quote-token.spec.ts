import { randomBytes } from 'node:crypto';
import { readQuote, signQuote, type QuoteClaims } from './quote-token';

const key = randomBytes(32);
const claims: QuoteClaims = {
  accountId: 'acc_1',
  keyId: 'key_1',
  request: 'a'.repeat(64),
  price: '0.004',
  maxCharge: '0.004',
  expiresAt: 1_800_000_000_000,
};

describe('quote ids', () => {
  it('round-trip the claims', () => {
    const id = signQuote(claims, key);
    expect(id).toMatch(/^quo_[\w-]+\.[\w-]+$/);
    expect(readQuote(id, key)).toEqual(claims);
  });

  it('refuse a changed body, another key, and garbage', () => {
    const id = signQuote(claims, key);
    const [body, sig] = id.slice(4).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, price: '0' })).toString('base64url');
    expect(readQuote(`quo_${forged}.${sig}`, key)).toBeNull();
    expect(readQuote(`quo_${body}.${sig}x`, key)).toBeNull();
    expect(readQuote(id, randomBytes(32))).toBeNull();
    expect(readQuote('quo_', key)).toBeNull();
    expect(readQuote('nonsense', key)).toBeNull();
    expect(readQuote(`${id}.more`, key)).toBeNull();
  });
});
