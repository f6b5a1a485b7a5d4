import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  RecordingAnthropicUpstream,
  RecordingGeminiUpstream,
  RecordingOpenAiUpstream,
  readAnthropicMessagesRequest,
  readGeminiGenerateRequest,
  readOpenAiChatRequest,
  type AnswerScript,
  type RecordedUpstreamRequest,
} from '@gen/providers/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;
// Jest's sandbox hides the undici dispatcher some SDKs look up on globalThis: each gets the global fetch.
const sdkFetch: typeof fetch = (url, init) => fetch(url, init);

const GPT = 'openai/gpt-4o-mini/chat';
const CLAUDE = 'anthropic/claude-sonnet-4-5/chat';
const GEMINI = 'google/gemini-2.5-flash/chat';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const DATA_URL = `data:image/png;base64,${PNG}`;
const LOOK = {
  name: 'look',
  description: 'Looks closer',
  parameters: { type: 'object', properties: { zoom: { type: 'number' } }, required: ['zoom'] },
};

/** What every upstream answers: text, a tool call whose arguments come in fragments, usage with cached input. */
const ANSWER = {
  text: ['A green ', 'square, ', 'small.'],
  toolCalls: [{ id: 'call_9', name: 'look', arguments: ['{"zo', 'om":', '4}'] }],
  finish: 'tool_calls',
  usage: { input: 1200, cachedInput: 1000, output: 180, reasoning: 0 },
} satisfies AnswerScript;

/**
 * The shipped real text models, bound by a CATALOG_FILE to servers on this machine that speak each provider's
 * wire format (streamed as it streams) and record what they receive, called through the official SDKs of the four
 * protocols. Each test asserts what the upstream received (the exact body, or the body read back by an
 * independent reader of that wire format, which refuses any field the format does not have) and what the client got.
 */
describe('the four protocols through the official SDKs, to the three upstream wire formats and back', () => {
  let app: Embedded;
  let openai: RecordingOpenAiUpstream;
  let anthropic: RecordingAnthropicUpstream;
  let gemini: RecordingGeminiUpstream;
  let apiKey: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    [openai, anthropic, gemini] = await Promise.all([
      RecordingOpenAiUpstream.start(),
      RecordingAnthropicUpstream.start(),
      RecordingGeminiUpstream.start(),
    ]);
    const shipped = JSON.parse(readFileSync('libs/catalog/catalog/models.json', 'utf8')) as {
      models: Json[];
    };
    const baseUrls: Record<string, string> = {
      [GPT]: openai.baseUrl,
      [CLAUDE]: anthropic.baseUrl,
      [GEMINI]: gemini.baseUrl,
    };
    const models = shipped.models.map((model) => {
      const baseUrl = baseUrls[model['id'] as string];
      if (!baseUrl) return model;
      const provider = model['provider'] as Json;
      return {
        ...model,
        provider: { ...provider, settings: { ...(provider['settings'] as Json), baseUrl } },
      };
    });
    const file = join(mkdtempSync(join(tmpdir(), 'wire-catalog-')), 'models.json');
    writeFileSync(file, JSON.stringify({ version: 1, models }));
    process.env['OPENAI_API_KEY'] = 'sk-openai-upstream';
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-upstream';
    process.env['GEMINI_API_KEY'] = 'g-upstream';
    app = await startEmbedded({ LOG_LEVEL: 'silent', CATALOG_FILE: file, RATE_LIMIT_BURST: '2000' });
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'wire', credit: '20' })) as {
      accountId: string;
    };
    ({ apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    });
  });
  afterAll(async () => {
    process.env = saved;
    await app?.close();
    await Promise.all([openai?.close(), anthropic?.close(), gemini?.close()]);
  });

  const openaiClient = () =>
    new OpenAI({ apiKey, baseURL: `${app.baseUrl}/v1`, maxRetries: 0, fetch: sdkFetch });
  const anthropicClient = () =>
    new Anthropic({ apiKey, baseURL: app.baseUrl, maxRetries: 0, fetch: sdkFetch });

  /** The one request each upstream received since `before`. */
  function received(
    upstream: { requests: RecordedUpstreamRequest[] },
    before: number,
  ): RecordedUpstreamRequest {
    expect(upstream.requests).toHaveLength(before + 1);
    return upstream.requests[before]!;
  }

  async function settled(taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const reply = await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const task = dataOf(reply);
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * The one conversation, in each protocol's own words: a system text; a user turn with a question and an image;
   * the assistant's tool call; its result and a follow-up question; with max tokens, temperature, top_p, one tool
   * and tool_choice auto. Each calls `model` and returns the SDK's view of the answer and the task id.
   */
  interface Outcome {
    text: string;
    toolCalls: { id?: string; name: string; args: unknown }[];
    usage: { input: number; cachedInput: number; output: number };
    taskId: string;
  }
  const PROTOCOLS: Record<string, (model: string) => Promise<Outcome>> = {
    'chat completions': async (model) => {
      const { data, response } = await openaiClient()
        .chat.completions.create({
          model,
          messages: [
            { role: 'system', content: 'You are terse.' },
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is in this picture?' },
                { type: 'image_url', image_url: { url: DATA_URL } },
              ],
            },
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"zoom":2}' } },
              ],
            },
            { role: 'tool', tool_call_id: 'call_1', content: 'a green square' },
            { role: 'user', content: 'Describe it.' },
          ],
          max_tokens: 300,
          temperature: 0.4,
          top_p: 0.9,
          tools: [{ type: 'function', function: LOOK }],
          tool_choice: 'auto',
        })
        .withResponse();
      const message = data.choices[0]!.message;
      return {
        text: message.content ?? '',
        toolCalls: (message.tool_calls ?? []).map((c) => {
          const fn = (c as { function: { name: string; arguments: string } }).function;
          return { id: c.id, name: fn.name, args: JSON.parse(fn.arguments) as unknown };
        }),
        usage: {
          input: data.usage!.prompt_tokens,
          cachedInput: data.usage!.prompt_tokens_details!.cached_tokens!,
          output: data.usage!.completion_tokens,
        },
        taskId: response.headers.get('x-service-task-id')!,
      };
    },
    responses: async (model) => {
      const { data, response } = await openaiClient()
        .responses.create({
          model,
          instructions: 'You are terse.',
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'What is in this picture?' },
                { type: 'input_image', image_url: DATA_URL, detail: 'auto' },
              ],
            },
            { type: 'function_call', call_id: 'call_1', name: 'look', arguments: '{"zoom":2}' },
            { type: 'function_call_output', call_id: 'call_1', output: 'a green square' },
            { role: 'user', content: 'Describe it.' },
          ],
          max_output_tokens: 300,
          temperature: 0.4,
          top_p: 0.9,
          tools: [{ type: 'function', ...LOOK, strict: null }],
          tool_choice: 'auto',
        })
        .withResponse();
      return {
        text: data.output_text,
        toolCalls: data.output.flatMap((item) =>
          item.type === 'function_call'
            ? [{ id: item.call_id, name: item.name, args: JSON.parse(item.arguments) as unknown }]
            : [],
        ),
        usage: {
          input: data.usage!.input_tokens,
          cachedInput: data.usage!.input_tokens_details.cached_tokens,
          output: data.usage!.output_tokens,
        },
        taskId: response.headers.get('x-service-task-id')!,
      };
    },
    messages: async (model) => {
      const { data, response } = await anthropicClient()
        .messages.create({
          model,
          system: 'You are terse.',
          max_tokens: 300,
          ...({ temperature: 0.4, top_p: 0.9 } as object),
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is in this picture?' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              ],
            },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'call_1', name: 'look', input: { zoom: 2 } }],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'call_1', content: 'a green square' },
                { type: 'text', text: 'Describe it.' },
              ],
            },
          ],
          tools: [{ name: LOOK.name, description: LOOK.description, input_schema: LOOK.parameters as never }],
          tool_choice: { type: 'auto' },
        } as Anthropic.MessageCreateParamsNonStreaming)
        .withResponse();
      return {
        text: data.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
        toolCalls: data.content.flatMap((b) =>
          b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input }] : [],
        ),
        usage: {
          input: data.usage.input_tokens + (data.usage.cache_read_input_tokens ?? 0),
          cachedInput: data.usage.cache_read_input_tokens ?? 0,
          output: data.usage.output_tokens,
        },
        taskId: response.headers.get('x-service-task-id')!,
      };
    },
    'generate content': async (model) => {
      const seen: { taskId?: string } = {};
      const google = new GoogleGenAI({
        apiKey,
        httpOptions: {
          baseUrl: app.baseUrl,
          fetch: async (input: string | URL | Request, init?: RequestInit) => {
            const response = await fetch(input, init);
            seen.taskId = response.headers.get('x-service-task-id') ?? undefined;
            return response;
          },
        } as never,
      });
      const answer = await google.models.generateContent({
        model,
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'What is in this picture?' },
              { inlineData: { mimeType: 'image/png', data: PNG } },
            ],
          },
          { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'look', args: { zoom: 2 } } }] },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'call_1', name: 'look', response: { output: 'a green square' } } },
              { text: 'Describe it.' },
            ],
          },
        ],
        config: {
          systemInstruction: 'You are terse.',
          maxOutputTokens: 300,
          temperature: 0.4,
          topP: 0.9,
          tools: [
            {
              functionDeclarations: [
                { ...LOOK, parameters: undefined, parametersJsonSchema: LOOK.parameters },
              ],
            },
          ],
          toolConfig: { functionCallingConfig: { mode: 'AUTO' as never } },
          httpOptions: {},
        },
      });
      return {
        text: answer.text ?? '',
        toolCalls: (answer.functionCalls ?? []).map((c) => ({ id: c.id, name: c.name!, args: c.args })),
        usage: {
          input: answer.usageMetadata!.promptTokenCount!,
          cachedInput: answer.usageMetadata!.cachedContentTokenCount ?? 0,
          output:
            (answer.usageMetadata!.candidatesTokenCount ?? 0) +
            (answer.usageMetadata!.thoughtsTokenCount ?? 0),
        },
        taskId: seen.taskId!,
      };
    },
  };

  /** The conversation as each upstream must have received it, read back by the independent readers. */
  const CONVERSATION = {
    system: ['You are terse.'],
    maxTokens: 300,
    temperature: 0.4,
    topP: 0.9,
    stop: [],
    tools: [{ name: 'look', description: 'Looks closer', parameters: LOOK.parameters }],
    toolChoice: 'auto',
  };
  const turns = (image: Json) => [
    {
      role: 'user',
      texts: ['What is in this picture?'],
      images: [image],
      toolCalls: [],
      toolResults: [],
      thinking: [],
    },
    {
      role: 'assistant',
      texts: [],
      images: [],
      toolCalls: [{ id: 'call_1', name: 'look', args: { zoom: 2 } }],
      toolResults: [],
      thinking: [],
    },
    {
      role: 'tool',
      texts: [],
      images: [],
      toolCalls: [],
      toolResults: [{ id: 'call_1', content: 'a green square' }],
      thinking: [],
    },
    { role: 'user', texts: ['Describe it.'], images: [], toolCalls: [], toolResults: [], thinking: [] },
  ];

  const UPSTREAMS = [
    {
      model: GPT,
      upstream: () => openai,
      read: (body: unknown) => readOpenAiChatRequest(body),
      expected: {
        ...CONVERSATION,
        model: 'gpt-4o-mini',
        stream: true,
        includeUsage: true,
        turns: turns({ kind: 'bytes', mediaType: 'image/png', base64: PNG }),
      },
    },
    {
      model: CLAUDE,
      upstream: () => anthropic,
      read: (body: unknown) => readAnthropicMessagesRequest(body),
      expected: {
        ...CONVERSATION,
        model: 'claude-sonnet-4-5',
        stream: true,
        turns: turns({ kind: 'bytes', mediaType: 'image/png', base64: PNG }),
      },
    },
    {
      model: GEMINI,
      upstream: () => gemini,
      read: (body: unknown) => readGeminiGenerateRequest(body),
      expected: {
        ...CONVERSATION,
        turns: turns({ kind: 'bytes', mediaType: 'image/png', base64: PNG }),
      },
    },
  ] as const;

  for (const [protocol, send] of Object.entries(PROTOCOLS)) {
    for (const { model, upstream, read, expected } of UPSTREAMS) {
      /**
       * What depends on the pair: Responses' `input_image` always carries a `detail`, which only OpenAI's format
       * takes; Gemini names a function's result after the call it answers.
       */
      const turnsFor = (base: readonly Json[]): Json[] =>
        base.map((turn) => {
          if (protocol === 'responses' && model === GPT && (turn['images'] as Json[]).length) {
            return {
              ...turn,
              images: (turn['images'] as Json[]).map((image) => ({ ...image, detail: 'auto' })),
            };
          }
          if (model === GEMINI && turn['role'] === 'tool') {
            return {
              ...turn,
              toolResults: (turn['toolResults'] as Json[]).map((r) => ({ ...r, name: 'look' })),
            };
          }
          return turn;
        });
      it(`${protocol} -> ${model}: the whole conversation reaches the upstream; its answer and usage come back`, async () => {
        const before = upstream().requests.length;
        upstream().answer(ANSWER);
        const outcome = await send(model);
        const sent = received(upstream(), before);
        const neutral = read(sent.body);
        expect({ ...neutral, extras: undefined }).toEqual({
          ...expected,
          turns: turnsFor(expected.turns),
          extras: undefined,
        });
        expect(neutral.extras).toEqual({});
        expect(outcome.text).toBe('A green square, small.');
        // Gemini's calls carry no id: each protocol names them after the request (Google's own leaves them unnamed).
        const id =
          model !== GEMINI
            ? 'call_9'
            : protocol === 'generate content'
              ? undefined
              : expect.stringMatching(/^(call|toolu)_req_[0-9A-Z]+_0$/);
        expect(outcome.toolCalls).toEqual([{ id, name: 'look', args: { zoom: 4 } }]);
        expect(outcome.usage).toEqual({ input: 1200, cachedInput: 1000, output: 180 });
        // The cost is the upstream's tokens at the model's three prices (per million: input, cached, output).
        const task = await settled(outcome.taskId);
        const prices = PRICES[model]!;
        const e9 = (200 * prices.input + 1000 * prices.cached + 180 * prices.output) / 1;
        expect(task['cost']).toBe(usd(e9));
      });
    }
  }
});

/** Prices per million tokens in billionths of a dollar per token (the shipped catalog's). */
const PRICES: Record<string, { input: number; cached: number; output: number }> = {
  'openai/gpt-4o-mini/chat': { input: 150, cached: 75, output: 600 },
  'anthropic/claude-sonnet-4-5/chat': { input: 3000, cached: 300, output: 15000 },
  'google/gemini-2.5-flash/chat': { input: 300, cached: 30, output: 2500 },
};
/** Billionths of a dollar as the API writes a cost. */
function usd(e9: number): string {
  return (e9 / 1e9).toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
}
