import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { envelopeClientErrors, parserRefusal, requestOfPacket } from './client-errors';

/** A socket that records what is written to it. */
class FakeSocket extends EventEmitter {
  written = '';
  destroyed = false;
  writable = true;
  end(text: string): void {
    this.written += text;
    this.writable = false;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const fastify = { log: { debug: () => undefined } } as unknown as FastifyInstance;
const handler = envelopeClientErrors({ bodyLimit: 1024, genReqId: () => 'req_TEST' });
const refuse = (code: string, packet?: string) => {
  const socket = new FakeSocket();
  const error = Object.assign(new Error('parse error'), {
    code,
    ...(packet === undefined ? {} : { rawPacket: Buffer.from(packet, 'latin1') }),
  });
  handler.call(fastify, error as never, socket as unknown as Socket);
  const [head = '', body = ''] = socket.written.split('\r\n\r\n');
  return { socket, head, body: body ? (JSON.parse(body) as Record<string, unknown>) : null };
};

describe('requestOfPacket', () => {
  it('reads the target and Accept-Language of what arrived, and nothing else', () => {
    const request = requestOfPacket(
      'req_1',
      Buffer.from(
        'POST /api/v1/jobs/createTask HTTP/1.1\r\nAccept-Language: ja\r\nIdempotency-Key: a\x7fb\r\n',
      ),
    );
    expect(request).toEqual({
      id: 'req_1',
      url: '/api/v1/jobs/createTask',
      headers: { 'accept-language': 'ja' },
    });
  });

  it('falls back to / when there is no readable target', () => {
    expect(requestOfPacket('req_1', undefined).url).toBe('/');
    expect(requestOfPacket('req_1', Buffer.from('\x00garbage')).url).toBe('/');
  });
});

describe('parserRefusal', () => {
  it('maps the parser codes to a business code and message', () => {
    expect(parserRefusal('HPE_INVALID_HEADER_TOKEN')).toMatchObject({
      code: 400,
      messageId: 'request.malformed_http',
    });
    expect(parserRefusal('HPE_HEADER_OVERFLOW')).toMatchObject({
      code: 413,
      messageId: 'request.headers_too_large',
    });
    expect(parserRefusal('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({
      code: 400,
      messageId: 'request.timeout',
    });
    expect(parserRefusal(undefined)).toMatchObject({ code: 400, messageId: 'request.malformed_http' });
  });
});

describe('envelopeClientErrors', () => {
  it('answers in the envelope with a request id, in the language asked for, and closes', () => {
    const { head, body, socket } = refuse(
      'HPE_INVALID_HEADER_TOKEN',
      'GET /api/v1/chat/credit HTTP/1.1\r\nAccept-Language: fr\r\nX-Bad: \x7f\r\n',
    );
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toContain('x-request-id: req_TEST');
    expect(head).toContain('content-language: fr');
    expect(head).toContain('connection: close');
    expect(body).toEqual({
      code: 400,
      msg: expect.stringMatching(/^La requête n'a pas pu être lue/),
      request_id: 'req_TEST',
    });
    expect(socket.writable).toBe(false);
  });

  it('answers a compatibility path in its protocol shape', () => {
    const { body } = refuse('HPE_INVALID_HEADER_TOKEN', 'POST /v1beta/models/x:generateContent HTTP/1.1\r\n');
    expect(body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('gives headers too large a 413', () => {
    expect(refuse('HPE_HEADER_OVERFLOW', 'GET / HTTP/1.1\r\n').head.split('\r\n')[0]).toBe(
      'HTTP/1.1 413 Payload Too Large',
    );
  });

  it('writes nothing on a reset or destroyed connection', () => {
    expect(refuse('ECONNRESET').socket.written).toBe('');
  });
});
