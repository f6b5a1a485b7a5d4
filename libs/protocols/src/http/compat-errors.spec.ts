import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { renderError } from '@gen/edge';
import { ProtocolError } from '../canonical/text-input';
import {
  CHAT_COMPLETIONS,
  GENERATE_CONTENT,
  MESSAGES,
  RESPONSES,
  type CompatProtocol,
} from './compat-protocols';

/**
 * Every status on every compatibility protocol, raised at the edge (`renderError`: key, balance, rate, body size,
 * conflicts, an unavailable dependency) and in the protocol writers (what a protocol refuses or a model fails
 * with): both must name it alike. The expectations are written out here, the providers' own vocabularies, not
 * read from the table the code uses.
 */
const EXPECTED = [
  // status, business code the edge raises it for, OpenAI type, Anthropic type, Google status
  [400, BusinessCode.InvalidRequest, 'invalid_request_error', 'invalid_request_error', 'INVALID_ARGUMENT'],
  [401, BusinessCode.Unauthorized, 'authentication_error', 'authentication_error', 'UNAUTHENTICATED'],
  [402, BusinessCode.InsufficientBalance, 'insufficient_quota', 'billing_error', 'FAILED_PRECONDITION'],
  [402, BusinessCode.SpendCapReached, 'insufficient_quota', 'billing_error', 'FAILED_PRECONDITION'],
  [403, BusinessCode.ModelNotPermitted, 'permission_error', 'permission_error', 'PERMISSION_DENIED'],
  [404, BusinessCode.NotFound, 'not_found_error', 'not_found_error', 'NOT_FOUND'],
  [409, BusinessCode.Conflict, 'invalid_request_error', 'invalid_request_error', 'ABORTED'],
  [413, BusinessCode.PayloadTooLarge, 'invalid_request_error', 'request_too_large', 'INVALID_ARGUMENT'],
  [429, BusinessCode.RateLimited, 'rate_limit_error', 'rate_limit_error', 'RESOURCE_EXHAUSTED'],
  [500, BusinessCode.ServerError, 'server_error', 'api_error', 'INTERNAL'],
  [503, BusinessCode.TemporarilyUnavailable, 'server_error', 'overloaded_error', 'UNAVAILABLE'],
  [503, BusinessCode.Unavailable, 'server_error', 'overloaded_error', 'UNAVAILABLE'],
] as const;

/** What a client branches on in each protocol's body: OpenAI's and Anthropic's `error.type`, Google's `status`. */
type Reader = (body: Record<string, Record<string, unknown>>) => unknown;
const PROTOCOLS: readonly [string, string, CompatProtocol, Reader, 2 | 3 | 4][] = [
  ['chat completions', '/v1/chat/completions', CHAT_COMPLETIONS, (b) => b['error']!['type'], 2],
  ['responses', '/v1/responses', RESPONSES, (b) => b['error']!['type'], 2],
  ['messages', '/v1/messages', MESSAGES, (b) => b['error']!['type'], 3],
  [
    'generate content',
    '/v1beta/models/local/echo/chat:generateContent',
    GENERATE_CONTENT,
    (b) => b['error']!['status'],
    4,
  ],
];

describe.each(PROTOCOLS)('%s errors by status', (_name, path, protocol, read, column) => {
  it.each(EXPECTED)(
    '%i (business code %i): the edge and the protocol writer agree',
    (status, code, ...names) => {
      const expected = names[column - 2];
      const edge = renderError(
        new DomainError(code, 'server.error'),
        { id: 'req_1', url: path, headers: {} },
        1024,
      );
      expect(edge.status).toBe(status);
      expect(read(JSON.parse(edge.body) as Record<string, Record<string, unknown>>)).toBe(expected);

      const written = protocol.error(new ProtocolError(status, 'some_code', 'server.error'), 'Shown.');
      expect(read(written as unknown as Record<string, Record<string, unknown>>)).toBe(expected);
    },
  );
});

describe('statuses only one side raises', () => {
  it.each([
    [504, 'timeout_error', 'DEADLINE_EXCEEDED'],
    [529, 'overloaded_error', 'INTERNAL'],
    [422, 'invalid_request_error', 'INVALID_ARGUMENT'],
  ])('%i: Anthropic %s, Google %s, OpenAI by class', (status, anthropic, google) => {
    const error = new ProtocolError(status, 'some_code', 'server.error');
    expect(MESSAGES.error(error, 'x')).toMatchObject({ error: { type: anthropic } });
    expect(GENERATE_CONTENT.error(error, 'x')).toMatchObject({ error: { status: google } });
    const openai = status >= 500 ? 'server_error' : 'invalid_request_error';
    expect(CHAT_COMPLETIONS.error(error, 'x')).toMatchObject({ error: { type: openai } });
    expect(RESPONSES.error(error, 'x')).toMatchObject({ error: { type: openai } });
  });
});

describe("the edge's OpenAI `code` where nothing more specific names the failure", () => {
  it.each([
    [BusinessCode.InvalidRequest, 'invalid_request'],
    [BusinessCode.Unauthorized, 'invalid_api_key'],
    [BusinessCode.InsufficientBalance, 'insufficient_balance'],
    [BusinessCode.Forbidden, 'permission_denied'],
    [BusinessCode.NotFound, 'not_found'],
    [BusinessCode.QuoteExpiredOrChanged, 'conflict'],
    [BusinessCode.PayloadTooLarge, 'request_too_large'],
    [BusinessCode.RateLimited, 'rate_limit_exceeded'],
    [BusinessCode.ServerError, 'server_error'],
    [BusinessCode.TemporarilyUnavailable, 'service_unavailable'],
  ])('business code %i: %s, on chat completions and responses', (code, expected) => {
    for (const url of ['/v1/chat/completions', '/v1/responses']) {
      const edge = renderError(
        new DomainError(code, 'server.error'),
        { id: 'req_1', url, headers: {} },
        1024,
      );
      expect(JSON.parse(edge.body)).toMatchObject({ error: { code: expected, param: null } });
    }
  });
});
