import { isUtf8 } from 'node:buffer';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { FastifyInstance } from 'fastify';

/**
 * The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms, no
 * encoded surrogates, nothing above U+10FFFF, no sequence cut short); -1 when every byte is.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    // The range the second byte must fall in (it excludes overlongs, surrogates and code points past U+10FFFF).
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k += 1) {
      const byte = bytes[i + k];
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (byte === undefined || byte < min || byte > max) return i;
    }
    i += length;
  }
  return -1;
}

/** The 400 of a body that is not UTF-8; it names where, never repeats the bytes. */
export const invalidUtf8 = (offset: number): DomainError =>
  new DomainError(BusinessCode.InvalidRequest, 'request.invalid_utf8', { offset });

/**
 * Fastify's JSON parser reads the body as a string, and decoding replaces each byte that is not UTF-8 with
 * U+FFFD: a body with invalid bytes was accepted (and its request charged) as if it said something else. JSON
 * is UTF-8 (RFC 8259), so such a body is refused here with a 400 before it is parsed, on every route that
 * takes JSON (the envelope on `/api`, each protocol's own error shape on `/v1` and `/v1beta`); the JSON itself
 * is then parsed by Fastify's own parser, with its settings.
 */
export function installUtf8Json(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser(
    fastify.initialConfig.onProtoPoisoning ?? 'error',
    fastify.initialConfig.onConstructorPoisoning ?? 'error',
  );
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // The fast check (native); the offset is looked for only in a body that fails it.
    if (!isUtf8(bytes)) {
      done(invalidUtf8(Math.max(0, firstInvalidUtf8(bytes))), undefined);
      return;
    }
    // Fastify's parser answers through `done` (its declared return type allows a promise; it returns none).
    void parse(request, bytes.toString('utf8'), done);
  });
}
