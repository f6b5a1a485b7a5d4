import { type Clock } from '@gen/core';
import { callbackHeaders, signCallback, verifyCallback } from './callback-signature';

const SECRET = 'sk_sign_test_secret';
const TASK = 'job_01JD4ZQ6T8W3X9V2K7M5N1P0R4';
const T = 1_800_000_000;
const V2_BODY = JSON.stringify({ code: 200, msg: 'success', data: { taskId: TASK, state: 'succeeded' } });
const V1_BODY = JSON.stringify({ task_id: TASK, state: 'failed' });
const at = (seconds: number): Clock => ({ now: () => new Date(seconds * 1000) });

function deliver(rawBody: string, payloadVersion: 1 | 2 = 2, timestamp = T): Record<string, string> {
  return callbackHeaders({ secret: SECRET, taskId: TASK, timestamp, rawBody, payloadVersion });
}
const check = (rawBody: string, headers: Record<string, string>, clock = at(T), secret = SECRET) =>
  verifyCallback({ secret, rawBody, headers, clock });

describe('callback signature', () => {
  it('accepts an untouched version 2 and version 1 callback', () => {
    expect(check(V2_BODY, deliver(V2_BODY, 2))).toEqual({ ok: true });
    expect(check(V1_BODY, deliver(V1_BODY, 1))).toEqual({ ok: true });
  });

  it('reads headers whatever their case, as Node hands them over lower-cased', () => {
    const lower = Object.fromEntries(Object.entries(deliver(V2_BODY)).map(([k, v]) => [k.toLowerCase(), v]));
    expect(check(V2_BODY, lower)).toEqual({ ok: true });
  });

  it('refuses a tampered body, even one that only re-serializes the same JSON', () => {
    const headers = deliver(V2_BODY);
    const tampered = V2_BODY.replace('succeeded', 'failed');
    expect(check(tampered, headers)).toEqual({ ok: false, reason: 'signature_mismatch' });
    const reformatted = JSON.stringify(JSON.parse(V2_BODY), null, 2);
    expect(check(reformatted, headers)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a timestamp changed after signing', () => {
    const headers = { ...deliver(V2_BODY), 'X-Webhook-Timestamp': String(T + 1) };
    expect(check(V2_BODY, headers)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a body whose task id was swapped, and a signature made over another task id', () => {
    const headers = deliver(V2_BODY);
    expect(check(V2_BODY.replace(TASK, 'job_other'), headers)).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    const otherTask = signCallback({ secret: SECRET, taskId: 'job_other', timestamp: T, rawBody: V2_BODY });
    expect(check(V2_BODY, { ...headers, 'X-Webhook-Signature': otherTask })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a signature made with another secret (a callback rotation has no grace period)', () => {
    expect(check(V2_BODY, deliver(V2_BODY), at(T), 'sk_sign_other')).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses the wrong payload version: the header picks where the task id is read', () => {
    const v1Headers = deliver(V1_BODY, 1);
    expect(check(V1_BODY, { ...v1Headers, 'X-Webhook-Payload-Version': '2' })).toEqual({
      ok: false,
      reason: 'invalid_body',
    });
    expect(check(V1_BODY, { ...v1Headers, 'X-Webhook-Payload-Version': '3' })).toEqual({
      ok: false,
      reason: 'invalid_payload_version',
    });
  });

  it('refuses missing headers and a malformed timestamp', () => {
    const { 'X-Webhook-Signature': _signature, ...unsigned } = deliver(V2_BODY);
    expect(check(V2_BODY, unsigned)).toEqual({ ok: false, reason: 'missing_header' });
    expect(check(V2_BODY, { ...deliver(V2_BODY), 'X-Webhook-Timestamp': '1.8e9' })).toEqual({
      ok: false,
      reason: 'invalid_timestamp',
    });
  });

  it('accepts a timestamp exactly 300 seconds old and refuses 301', () => {
    const headers = deliver(V2_BODY);
    expect(check(V2_BODY, headers, at(T + 300))).toEqual({ ok: true });
    expect(check(V2_BODY, headers, { now: () => new Date((T + 300) * 1000 + 999) })).toEqual({ ok: true });
    expect(check(V2_BODY, headers, at(T + 301))).toEqual({ ok: false, reason: 'timestamp_too_old' });
  });

  it('treats future skew the same way: 300 seconds ahead accepted, 301 refused', () => {
    const headers = deliver(V2_BODY);
    expect(check(V2_BODY, headers, at(T - 300))).toEqual({ ok: true });
    expect(check(V2_BODY, headers, at(T - 301))).toEqual({ ok: false, reason: 'timestamp_too_new' });
  });

  it('will not sign without a secret, nor with a timestamp that is not integer Unix seconds', () => {
    expect(() => signCallback({ secret: '', taskId: TASK, timestamp: T, rawBody: V2_BODY })).toThrow(
      RangeError,
    );
    expect(() =>
      signCallback({ secret: SECRET, taskId: TASK, timestamp: T + 0.5, rawBody: V2_BODY }),
    ).toThrow(RangeError);
  });
});
