import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '@gen/core';
import { webhookSignatureVectors } from '@gen/testing';
import {
  CALLBACK_USER_AGENT,
  callbackHeaders,
  callbackSignedText,
  callbackTaskId,
  signCallback,
  verifyCallback,
} from './callback-signature';
import { signStandard, standardHeaders, verifyStandard } from './standard-webhook-signature';

const { all: vectors, callbacks, standards } = webhookSignatureVectors();
const at = (seconds: number): Clock => ({ now: () => new Date(seconds * 1000) });

describe("webhook signature vectors of the specification (@gen/testing's webhook-signatures.json)", () => {
  it('holds the two callback entries (versions 2 and 1) and the one Standard Webhooks entry', () => {
    expect(callbacks.map((v) => v.version)).toEqual([2, 1]);
    expect(standards).toHaveLength(1);
    expect(vectors).toHaveLength(3);
  });

  describe.each(callbacks.map((v) => [`callback v${v.version} at ${v.timestamp}`, v] as const))(
    '%s',
    (_name, v) => {
      it('has the body digest and signed text of the vector, byte for byte', () => {
        expect(createHash('sha256').update(v.body, 'utf8').digest('hex')).toBe(v.sha256_hex);
        expect(callbackSignedText({ taskId: v.taskId, timestamp: v.timestamp, rawBody: v.body })).toBe(
          v.signed_text,
        );
      });

      it('signs to the vector X-Webhook-Signature from a string body and from its bytes', () => {
        const input = { secret: v.secret, taskId: v.taskId, timestamp: v.timestamp };
        expect(signCallback({ ...input, rawBody: v.body })).toBe(v['X-Webhook-Signature']);
        expect(signCallback({ ...input, rawBody: Buffer.from(v.body, 'utf8') })).toBe(
          v['X-Webhook-Signature'],
        );
      });

      it('reads the task id where its payload version keeps it', () => {
        expect(callbackTaskId(v.body, v.version)).toBe(v.taskId);
      });

      it('sends the spec headers, and a receiver written from the spec accepts them at that moment', () => {
        const headers = callbackHeaders({
          secret: v.secret,
          taskId: v.taskId,
          timestamp: v.timestamp,
          rawBody: v.body,
          payloadVersion: v.version,
        });
        expect(headers).toEqual({
          'X-Webhook-Timestamp': String(v.timestamp),
          'X-Webhook-Signature': v['X-Webhook-Signature'],
          'X-Webhook-Payload-Version': String(v.version),
          'User-Agent': CALLBACK_USER_AGENT,
          'Content-Type': 'application/json',
        });
        expect(CALLBACK_USER_AGENT).toBe('Service-Webhook/1');
        const result = verifyCallback({ secret: v.secret, rawBody: v.body, headers, clock: at(v.timestamp) });
        expect(result).toEqual({ ok: true });
      });
    },
  );

  describe.each(standards.map((v) => [v['webhook-id'], v] as const))('Standard Webhooks %s', (_name, v) => {
    const headers = {
      'webhook-id': v['webhook-id'],
      'webhook-timestamp': String(v['webhook-timestamp']),
      'webhook-signature': v['webhook-signature'],
    };

    it('signs to the vector webhook-signature', () => {
      const input = { msgId: v['webhook-id'], timestamp: v['webhook-timestamp'], body: v.body };
      expect(signStandard({ ...input, secret: v.secret })).toBe(v['webhook-signature']);
      expect(standardHeaders({ ...input, secrets: [v.secret] })).toEqual({
        ...headers,
        'User-Agent': 'Service-Webhook/2',
        'Content-Type': 'application/json',
      });
    });

    it('is refused as too old by a verifier on the real clock', () => {
      expect(verifyStandard({ secret: v.secret, body: v.body, headers, clock: systemClock })).toEqual({
        ok: false,
        reason: 'timestamp_too_old',
      });
      expect(verifyStandard({ secret: v.secret, body: v.body, headers })).toEqual({
        ok: false,
        reason: 'timestamp_too_old',
      });
    });

    it('is accepted by a verifier whose clock is set to its moment', () => {
      const moment = v['webhook-timestamp'];
      expect(verifyStandard({ secret: v.secret, body: v.body, headers, clock: at(moment) })).toEqual({
        ok: true,
      });
    });
  });
});
