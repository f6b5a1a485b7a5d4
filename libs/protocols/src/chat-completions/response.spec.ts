import OpenAI, {
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { type ChatResult, ProtocolError, aggregate } from '../canonical/text-input';
import { openAiErrorType } from '@gen/contracts';
import { writeChatCompletionsError } from './error';
import { writeChatCompletionsResponse } from './response';
import { replayServer } from './testing/replay-server';

const RESULT: ChatResult = {
  id: 'req_01JZ9',
  model: 'anthropic/claude-sonnet-4.5',
  created: 1767225600,
  text: 'It is sunny.',
  reasoning: 'Look up Paris.',
  thinkingBlocks: [],
  toolCalls: [],
  finishReason: 'stop',
  usage: { inputTokens: 40, cachedInputTokens: 16, outputTokens: 25, reasoningTokens: 9 },
};

let server: Awaited<ReturnType<typeof replayServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function served(status: number, body: unknown): Promise<OpenAI> {
  server = await replayServer([{ status, contentType: 'application/json', pieces: [JSON.stringify(body)] }]);
  return new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries: 0 });
}

const ask = (openai: OpenAI) =>
  openai.chat.completions.create({ model: RESULT.model, messages: [{ role: 'user', content: 'Weather?' }] });

describe('writeChatCompletionsResponse', () => {
  it('writes the chat.completion object, field for field, without system_fingerprint or logprobs', () => {
    expect(writeChatCompletionsResponse(RESULT)).toEqual({
      id: 'chatcmpl-req_01JZ9',
      object: 'chat.completion',
      created: 1767225600,
      model: 'anthropic/claude-sonnet-4.5',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'It is sunny.',
            reasoning_content: 'Look up Paris.',
            refusal: null,
          },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 40,
        completion_tokens: 25,
        total_tokens: 65,
        prompt_tokens_details: { cached_tokens: 16 },
        completion_tokens_details: { reasoning_tokens: 9 },
      },
    });
  });

  it('leaves reasoning_content out when there was none, and writes content null for a tool-call-only answer', () => {
    const body = writeChatCompletionsResponse({
      ...RESULT,
      text: '',
      reasoning: '',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: '', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    });
    expect(body.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_req_01JZ9_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    });
    expect(body.choices[0].finish_reason).toBe('tool_calls');
  });

  it('writes an answer without text (only reasoning, or nothing) with content null', () => {
    expect(writeChatCompletionsResponse({ ...RESULT, text: '' }).choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Look up Paris.',
      refusal: null,
    });
    const body = writeChatCompletionsResponse({ ...RESULT, text: '', reasoning: '', finishReason: 'length' });
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].message).not.toHaveProperty('tool_calls');
  });

  it('writes the signed blocks as thinking_blocks, in order, beside all the reasoning text', () => {
    const result = aggregate(
      [
        { type: 'reasoning', delta: 'Look up ' },
        { type: 'reasoning', delta: 'Paris.' },
        { type: 'reasoning_signature', signature: 'sig-1' },
        { type: 'redacted_reasoning', data: 'opaque' },
        { type: 'reasoning', delta: ' Then answer.' },
        { type: 'reasoning_signature', signature: 'sig-2' },
        { type: 'text', delta: 'It is sunny.' },
      ],
      RESULT,
    );
    expect(writeChatCompletionsResponse(result).choices[0].message).toEqual({
      role: 'assistant',
      content: 'It is sunny.',
      reasoning_content: 'Look up Paris. Then answer.',
      thinking_blocks: [
        { type: 'thinking', thinking: 'Look up Paris.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'thinking', thinking: ' Then answer.', signature: 'sig-2' },
      ],
      refusal: null,
    });
    // Reasoning nobody signed (an OpenAI-compatible upstream) has no blocks.
    expect(writeChatCompletionsResponse(RESULT).choices[0].message).not.toHaveProperty('thinking_blocks');
  });

  it('is read by the openai SDK as the completion it is', async () => {
    const completion = await ask(await served(200, writeChatCompletionsResponse(RESULT)));
    expect(completion.id).toBe('chatcmpl-req_01JZ9');
    expect(completion.choices[0]?.message.content).toBe('It is sunny.');
    expect((completion.choices[0]?.message as { reasoning_content?: string }).reasoning_content).toBe(
      'Look up Paris.',
    );
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(9);
  });

  it('the openai SDK keeps thinking_blocks on the message, ready to be sent back as they came', async () => {
    const blocks = [
      { type: 'thinking' as const, thinking: 'Look up Paris.', signature: 'sig-1' },
      { type: 'redacted_thinking' as const, data: 'opaque' },
    ];
    const openai = await served(200, writeChatCompletionsResponse({ ...RESULT, thinkingBlocks: blocks }));
    const message = (await ask(openai)).choices[0]!.message as { thinking_blocks?: unknown };
    expect(message.thinking_blocks).toEqual(blocks);
  });

  it('is still read by the SDK behind the keep-alive whitespace of a long non-streamed request', async () => {
    server = await replayServer([
      {
        contentType: 'application/json',
        pieces: ['\n', ' \n', JSON.stringify(writeChatCompletionsResponse(RESULT))],
      },
    ]);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries: 0 });
    expect((await ask(openai)).choices[0]?.message.content).toBe('It is sunny.');
  });
});

describe('writeChatCompletionsError', () => {
  it('writes {error: {message, type, param, code}} with the message as given', () => {
    const error = new ProtocolError(400, 'unsupported_parameter', 'compat.unsupported_parameter', {}, 'seed');
    expect(writeChatCompletionsError(error, 'Le paramètre seed n’est pas pris en charge.')).toEqual({
      error: {
        message: 'Le paramètre seed n’est pas pris en charge.',
        type: 'invalid_request_error',
        param: 'seed',
        code: 'unsupported_parameter',
      },
    });
  });

  // The spec leaves chat-style `type` values open ("not shown"). Chosen: OpenAI's own names per status, so that
  // clients that branch on `type` keep working; 402 (balance or spend cap) is OpenAI's `insufficient_quota`,
  // every 5xx `server_error`, every other 4xx `invalid_request_error`.
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [402, 'insufficient_quota'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [409, 'invalid_request_error'],
    [413, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'server_error'],
    [503, 'server_error'],
  ])('types status %i as %s', (status, type) => {
    expect(openAiErrorType(status)).toBe(type);
  });

  it.each([
    [400, 'unsupported_parameter', 'messages.1.content.0', BadRequestError],
    [401, 'invalid_api_key', null, AuthenticationError],
    [402, 'insufficient_balance', null, APIError],
    [403, 'forbidden', null, PermissionDeniedError],
    [404, 'model_not_found', 'model', NotFoundError],
    [429, 'rate_limited', null, RateLimitError],
    [500, 'server_error', null, InternalServerError],
  ] as const)(
    'status %i reaches the openai SDK as its error class with status, code and param',
    async (status, code, param, errorClass) => {
      const error = new ProtocolError(status, code, 'server.error', {}, param);
      const openai = await served(status, writeChatCompletionsError(error, 'Shown to the caller.'));
      const caught = await ask(openai).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(caught).toBeInstanceOf(errorClass);
      expect(caught).toMatchObject({
        status,
        code,
        param,
        type: openAiErrorType(status),
        message: `${status} Shown to the caller.`,
      });
    },
  );
});
