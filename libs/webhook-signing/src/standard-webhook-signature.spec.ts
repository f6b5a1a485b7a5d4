import { type Clock } from '@gen/core';
import {
  endpointSecretKey,
  generateEndpointSecret,
  signStandard,
  standardHeaders,
  standardSignatureHeader,
  verifyStandard,
} from './standard-webhook-signature';

const OLD = 'whsec_' + Buffer.from('old-endpoint-secret-0123456789ab').toString('base64');
const NEW = 'whsec_' + Buffer.from('new-endpoint-secret-0123456789ab').toString('base64');
const ID = 'msg_01JD4ZQC0000000000000000B2';
const T = 1_800_000_000;
const BODY = JSON.stringify({
  id: ID,
  type: 'task.failed',
  created: T,
  data: { object: { state: 'failed' } },
});
const at = (seconds: number): Clock => ({ now: () => new Date(seconds * 1000) });

const deliver = (secrets: string[], timestamp = T) =>
  standardHeaders({ secrets, msgId: ID, timestamp, body: BODY });
const check = (headers: Record<string, string>, secret = NEW, body = BODY, clock = at(T)) =>
  verifyStandard({ secret, body, headers, clock });

describe('Standard Webhooks signature', () => {
  it('sends webhook-id, webhook-timestamp, one v1 signature, and the service user agent', () => {
    const headers = deliver([NEW]);
    expect(Object.keys(headers)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'User-Agent',
      'Content-Type',
    ]);
    expect(headers['webhook-id']).toBe(ID);
    expect(headers['webhook-timestamp']).toBe(String(T));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['User-Agent']).toBe('Service-Webhook/2');
    expect(check(headers)).toEqual({ ok: true });
  });

  it('refuses a tampered body, timestamp, id or secret', () => {
    const headers = deliver([NEW]);
    const mismatch = { ok: false, reason: 'signature_mismatch' };
    expect(check(headers, NEW, BODY.replace('failed', 'succeeded'))).toEqual(mismatch);
    expect(check({ ...headers, 'webhook-timestamp': String(T + 1) })).toEqual(mismatch);
    expect(check({ ...headers, 'webhook-id': 'msg_01JD4ZQC0000000000000000B3' })).toEqual(mismatch);
    expect(check(headers, OLD)).toEqual(mismatch);
  });

  it('signs a Buffer body exactly as its string', () => {
    const input = { secret: NEW, msgId: ID, timestamp: T };
    expect(signStandard({ ...input, body: Buffer.from(BODY) })).toBe(signStandard({ ...input, body: BODY }));
  });

  it('during a rotation sends both signatures space-separated, and either secret verifies', () => {
    const headers = deliver([NEW, OLD]);
    const [first, second, ...rest] = headers['webhook-signature']!.split(' ');
    expect(rest).toEqual([]);
    expect(first).toBe(signStandard({ secret: NEW, msgId: ID, timestamp: T, body: BODY }));
    expect(second).toBe(signStandard({ secret: OLD, msgId: ID, timestamp: T, body: BODY }));
    expect(check(headers, NEW)).toEqual({ ok: true });
    expect(check(headers, OLD)).toEqual({ ok: true });
    const third = 'whsec_' + Buffer.from('a-third-secret-nobody-holds-0000').toString('base64');
    expect(check(headers, third)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('ignores signatures of other versions and garbage between the entries', () => {
    const v1 = signStandard({ secret: NEW, msgId: ID, timestamp: T, body: BODY });
    const headers = { ...deliver([NEW]), 'webhook-signature': `v2,abc v1a,${v1.slice(3)} ${v1}` };
    expect(check(headers)).toEqual({ ok: true });
    expect(check({ ...headers, 'webhook-signature': `v2,${v1.slice(3)}` })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('accepts a timestamp exactly 300 seconds old and refuses 301', () => {
    const headers = deliver([NEW]);
    expect(check(headers, NEW, BODY, at(T + 300))).toEqual({ ok: true });
    expect(check(headers, NEW, BODY, at(T + 301))).toEqual({ ok: false, reason: 'timestamp_too_old' });
  });

  it('accepts a timestamp 300 seconds ahead of the clock and refuses 301', () => {
    const headers = deliver([NEW]);
    expect(check(headers, NEW, BODY, at(T - 300))).toEqual({ ok: true });
    expect(check(headers, NEW, BODY, at(T - 301))).toEqual({ ok: false, reason: 'timestamp_too_new' });
  });

  it('refuses missing headers and a malformed timestamp', () => {
    const { 'webhook-id': _id, ...withoutId } = deliver([NEW]);
    expect(check(withoutId)).toEqual({ ok: false, reason: 'missing_header' });
    expect(check({ ...deliver([NEW]), 'webhook-timestamp': '-1' })).toEqual({
      ok: false,
      reason: 'invalid_timestamp',
    });
  });

  it('generates whsec_ secrets of 32 random bytes that sign and verify', () => {
    const secret = generateEndpointSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpointSecretKey(secret)).toHaveLength(32);
    expect(generateEndpointSecret()).not.toBe(secret);
    expect(check(deliver([secret]), secret)).toEqual({ ok: true });
  });

  it('refuses to sign with a malformed secret, no secrets, or an id without msg_', () => {
    const input = { msgId: ID, timestamp: T, body: BODY };
    expect(() => signStandard({ ...input, secret: 'c2VjcmV0' })).toThrow(RangeError);
    expect(() => signStandard({ ...input, secret: 'whsec_not base64!' })).toThrow(RangeError);
    expect(() => signStandard({ ...input, secret: 'whsec_' })).toThrow(RangeError);
    expect(() => standardSignatureHeader({ ...input, secrets: [] })).toThrow(RangeError);
    expect(() => signStandard({ ...input, secret: NEW, msgId: 'whd_1' })).toThrow(RangeError);
  });
});
