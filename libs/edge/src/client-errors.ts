import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { renderError, type ErroredRequest } from './error-responder';

/**
 * Refusals that happen before Fastify has a request to hand to the exception filter, rendered by the same
 * `renderError` so that they too carry the envelope (or the protocol's shape), a request id and
 * `X-Request-Id`:
 * - the router's (`frameworkErrors`): a path that does not percent-decode, a route parameter too long;
 * - Node's HTTP parser (`clientErrorHandler`): a byte no header may hold (NUL, DEL 0x7F, other controls),
 *   a malformed request line, headers too large, a request not received in time.
 */

/** Fastify's `frameworkErrors` option: the router's refusals through the envelope. */
export function envelopeFrameworkErrors(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const response = renderError(error, request, bodyLimit);
    if (response.unexpected) request.log.error({ err: error }, 'unexpected error');
    void reply
      .status(response.status)
      .headers({ ...response.headers, 'x-request-id': request.id })
      .send(response.body);
  };
}

/** The refusal of a request Node's HTTP parser could not read, by the parser's error code. */
export function parserRefusal(code: string | undefined): DomainError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new DomainError(BusinessCode.PayloadTooLarge, 'request.headers_too_large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new DomainError(BusinessCode.InvalidRequest, 'request.timeout');
  return new DomainError(BusinessCode.InvalidRequest, 'request.malformed_http');
}

/**
 * What the bytes received so far tell of the refused request, read leniently: its target (for the
 * protocol family of the answer) and `Accept-Language` (for its language). Nothing else is trusted.
 */
export function requestOfPacket(id: string, packet: Buffer | undefined): ErroredRequest {
  const text = packet ? packet.toString('latin1') : '';
  const [requestLine = '', ...lines] = text.split(/\r?\n/);
  const target = requestLine.split(' ')[1] ?? '';
  const headers: Record<string, string> = {};
  for (const line of lines) {
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'accept-language')
      headers['accept-language'] = line.slice(colon + 1).trim();
  }
  return { id, url: target.startsWith('/') ? target : '/', headers };
}

/**
 * Fastify's `clientErrorHandler` option: what Node's HTTP parser refuses is answered in the envelope, with a
 * request id, and the connection closed (the parser cannot read on from a broken request).
 */
export function envelopeClientErrors(options: {
  readonly bodyLimit: number;
  readonly genReqId: () => string;
}) {
  return function clientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    this.log.debug({ err: error }, 'client error');
    if (!socket.writable) {
      socket.destroy(error);
      return;
    }
    // Typed as its JSON form, but Node hands over the Buffer itself.
    const packet: unknown = error.rawPacket;
    const request = requestOfPacket(options.genReqId(), Buffer.isBuffer(packet) ? packet : undefined);
    const response = renderError(parserRefusal(error.code), request, options.bodyLimit);
    const headers = {
      ...response.headers,
      'x-request-id': request.id,
      'content-length': String(Buffer.byteLength(response.body)),
      connection: 'close',
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${head.join('')}\r\n${response.body}`,
    );
  };
}
