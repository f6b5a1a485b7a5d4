import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { selfSignedCertificate } from '@gen/testing';
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
/** An https image source of its own address (FETCH_ALLOW_PRIVATE_CIDRS), as the media input tests use them. */
const SOURCE = '127.0.1.65';
const HTTPS_IMAGE = `https://${SOURCE}/dot.png`;
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
  let source: Server;
  let sourceHits = 0;
  let dot: Buffer;
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
    const dir = mkdtempSync(join(tmpdir(), 'wire-catalog-'));
    const file = join(dir, 'models.json');
    writeFileSync(file, JSON.stringify({ version: 1, models }));
    dot = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#0c0' } })
      .png()
      .toBuffer();
    const cert = selfSignedCertificate(dir, 'wire images', [`IP:${SOURCE}`]);
    source = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      sourceHits += 1;
      if (request.url === '/dot.png') response.writeHead(200, { 'content-type': 'image/png' }).end(dot);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      source.once('error', reject);
      source.listen(443, SOURCE, resolve);
    });
    process.env['OPENAI_API_KEY'] = 'sk-openai-upstream';
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-upstream';
    process.env['GEMINI_API_KEY'] = 'g-upstream';
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      CATALOG_FILE: file,
      RATE_LIMIT_BURST: '2000',
      FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`,
      FETCH_CA_FILE: cert.file,
    });
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
    source?.closeAllConnections();
    await new Promise((resolve) => (source ? source.close(resolve) : resolve(undefined)));
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

  /** Uploads and commits the 2x2 PNG for the key's account: its service:// URI. */
  async function ownImage(): Promise<string> {
    const auth = { authorization: `Bearer ${apiKey}` };
    const body = { fileName: 'dot.png', contentType: 'image/png', bytes: dot.length };
    const ticket = dataOf(await app.call('POST', '/api/v1/common/upload-url', { headers: auth, body })) as {
      fileId: string;
      uploadUrl: string;
    };
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: dot,
    });
    expect(put.status).toBe(200);
    const commit = await app.call('POST', `/api/v1/files/${ticket.fileId}/commit`, { headers: auth });
    return dataOf(commit)['uri'] as string;
  }
  const body = (request: RecordedUpstreamRequest): unknown => JSON.parse(request.rawBody.toString('utf8'));
  const SCHEMA = { type: 'object', properties: { same: { type: 'boolean' } }, required: ['same'] };
  const JSON_ANSWER = {
    text: ['{"same"', ':true}'],
    finish: 'stop',
    usage: { input: 40, cachedInput: 0, output: 6, reasoning: 0 },
  } satisfies AnswerScript;

  describe('what each protocol and model add, byte for byte', () => {
    it('chat completions -> gpt-4o-mini: JSON schema, penalties, stop, an https image as is, an own file as bytes', async () => {
      const file = await ownImage();
      const before = openai.requests.length;
      openai.answer(JSON_ANSWER);
      const { data, response } = await openaiClient()
        .chat.completions.create({
          model: GPT,
          messages: [
            { role: 'developer', content: 'Answer in JSON.' },
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Are these the same?' },
                { type: 'image_url', image_url: { url: HTTPS_IMAGE, detail: 'high' } },
                { type: 'image_url', image_url: { url: file } },
              ],
            },
          ],
          max_tokens: 200,
          presence_penalty: 0.5,
          frequency_penalty: -0.25,
          stop: 'END',
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'cmp', schema: SCHEMA, strict: true },
          },
          tools: [{ type: 'function', function: LOOK }],
          parallel_tool_calls: false,
        })
        .withResponse();
      expect(response.headers.get('x-service-ignored-params')).toBeNull();
      expect(data.choices[0]!.message.content).toBe('{"same":true}');
      expect(body(received(openai, before))).toEqual({
        model: 'gpt-4o-mini',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: 'Answer in JSON.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Are these the same?' },
              { type: 'image_url', image_url: { url: HTTPS_IMAGE, detail: 'high' } },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${dot.toString('base64')}` } },
            ],
          },
        ],
        max_tokens: 200,
        presence_penalty: 0.5,
        frequency_penalty: -0.25,
        stop: ['END'],
        response_format: { type: 'json_schema', json_schema: { name: 'cmp', schema: SCHEMA, strict: true } },
        tools: [{ type: 'function', function: LOOK }],
        parallel_tool_calls: false,
      });
    });

    it('chat completions -> claude: reasoning_effort becomes thinking, under extended thinking’s rules', async () => {
      const before = anthropic.requests.length;
      anthropic.answer({ ...JSON_ANSWER, text: 'Same.' });
      await openaiClient().chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Think, then answer.' }],
        max_tokens: 4000,
        temperature: 0.5,
        top_p: 0.9,
        stop: ['END', 'FIN'],
        reasoning_effort: 'high',
        ...({ top_k: 40 } as object),
      });
      expect(body(received(anthropic, before))).toEqual({
        model: 'claude-sonnet-4-5',
        stream: true,
        max_tokens: 4000,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Think, then answer.' }] }],
        thinking: { type: 'enabled', budget_tokens: 3000 },
        top_p: 0.95,
        stop_sequences: ['END', 'FIN'],
      });
    });

    it('messages -> claude: top_k, stop sequences, images by URL and by bytes, a forced tool without parallel calls', async () => {
      const file = await ownImage();
      const before = anthropic.requests.length;
      anthropic.answer(ANSWER);
      await anthropicClient().messages.create({
        model: CLAUDE,
        max_tokens: 500,
        ...({ temperature: 0.2, top_k: 12 } as object),
        stop_sequences: ['###'],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'url', url: HTTPS_IMAGE } },
              { type: 'image', source: { type: 'url', url: file } },
              { type: 'text', text: 'Look.' },
            ],
          },
        ],
        tools: [{ name: LOOK.name, description: LOOK.description, input_schema: LOOK.parameters as never }],
        tool_choice: { type: 'tool', name: 'look', disable_parallel_tool_use: true },
      } as Anthropic.MessageCreateParamsNonStreaming);
      expect(body(received(anthropic, before))).toEqual({
        model: 'claude-sonnet-4-5',
        stream: true,
        max_tokens: 500,
        temperature: 0.2,
        top_k: 12,
        stop_sequences: ['###'],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'url', url: HTTPS_IMAGE } },
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: dot.toString('base64') },
              },
              { type: 'text', text: 'Look.' },
            ],
          },
        ],
        tools: [{ name: 'look', description: 'Looks closer', input_schema: LOOK.parameters }],
        tool_choice: { type: 'tool', name: 'look', disable_parallel_tool_use: true },
      });
    });

    it('generate content -> gemini: topK, a JSON schema, a thinking budget, and an https image fetched and sent inline', async () => {
      const hits = sourceHits;
      const before = gemini.requests.length;
      gemini.answer(JSON_ANSWER);
      const google = new GoogleGenAI({
        apiKey,
        httpOptions: { baseUrl: app.baseUrl, fetch: sdkFetch } as never,
      });
      const answer = await google.models.generateContent({
        model: GEMINI,
        contents: [
          {
            role: 'user',
            parts: [{ fileData: { fileUri: HTTPS_IMAGE, mimeType: 'image/png' } }, { text: 'Same colour?' }],
          },
        ],
        config: {
          maxOutputTokens: 2000,
          topK: 20,
          stopSequences: ['STOP'],
          responseMimeType: 'application/json',
          responseJsonSchema: SCHEMA,
          thinkingConfig: { thinkingBudget: 512 },
        },
      });
      expect(answer.text).toBe('{"same":true}');
      expect(sourceHits).toBe(hits + 1);
      expect(RecordingGeminiUpstream.modelOf(received(gemini, before))).toBe('gemini-2.5-flash');
      expect(body(received(gemini, before))).toEqual({
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'image/png', data: dot.toString('base64') } },
              { text: 'Same colour?' },
            ],
          },
        ],
        generationConfig: {
          maxOutputTokens: 2000,
          topK: 20,
          stopSequences: ['STOP'],
          responseMimeType: 'application/json',
          responseJsonSchema: SCHEMA,
          // 512 tokens is the level `low`, a quarter of maxOutputTokens (docs/text.md).
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      });
    });

    it('an https image Gemini needs that cannot be read: 400 in the protocol, the task failed uncharged, no upstream call', async () => {
      const auth = { authorization: `Bearer ${apiKey}` };
      const before = gemini.requests.length;
      const balance = dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }));
      const reply = await app.call('POST', '/v1/chat/completions', {
        headers: auth,
        body: {
          model: GEMINI,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image_url', image_url: { url: `https://${SOURCE}/gone.png` } }],
            },
          ],
        },
      });
      expect(reply.status).toBe(400);
      expect(reply.json['error']).toMatchObject({ type: 'invalid_request_error' });
      const task = await settled(reply.headers.get('x-service-task-id')!);
      expect(task).toMatchObject({ state: 'failed', errorCode: 'input_unavailable', cost: '0' });
      expect(gemini.requests).toHaveLength(before);
      expect(dataOf(await app.call('GET', '/api/v1/chat/credit', { headers: auth }))).toEqual(balance);
    });

    it('chat completions -> gemini: a field Gemini has no name for is not sent, and is named as ignored', async () => {
      const before = gemini.requests.length;
      gemini.answer(JSON_ANSWER);
      const { response } = await openaiClient()
        .chat.completions.create({
          model: GEMINI,
          messages: [{ role: 'user', content: 'Go.' }],
          tools: [{ type: 'function', function: LOOK }],
          parallel_tool_calls: false,
          ...({ min_p: 0.1 } as object),
        })
        .withResponse();
      expect(response.headers.get('x-service-ignored-params')).toBe('min_p,parallel_tool_calls');
      expect(readGeminiGenerateRequest(body(received(gemini, before)))).toMatchObject({
        tools: [{ name: 'look' }],
        extras: {},
      });
    });
  });

  describe('streamed, with reasoning, and signed thinking sent back on the next turn', () => {
    const SIGNED = {
      reasoning: [
        { text: ['The user wants ', 'a colour.'], signature: 'sig-A==' },
        { text: 'Green it is.', signature: 'sig-B==' },
      ],
      redacted: ['cmVkYWN0ZWQ='],
      text: ['Green', '.'],
      toolCalls: [{ id: 'toolu_7', name: 'look', arguments: ['{"zoom"', ':3}'] }],
      finish: 'tool_calls',
      usage: { input: 300, cachedInput: 100, output: 90, reasoning: 0 },
    } satisfies AnswerScript;
    const BLOCKS = [
      { type: 'thinking', thinking: 'The user wants a colour.', signature: 'sig-A==' },
      { type: 'thinking', thinking: 'Green it is.', signature: 'sig-B==' },
      { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
    ];

    it('messages (streamed) -> claude: the SDK assembles the signed blocks; sent back, they reach Anthropic unchanged', async () => {
      const client = anthropicClient();
      anthropic.answer(SIGNED);
      const question = { role: 'user' as const, content: 'Which colour?' };
      const first = await client.messages
        .stream({
          model: CLAUDE,
          max_tokens: 4000,
          messages: [question],
          tools: [{ name: LOOK.name, description: LOOK.description, input_schema: LOOK.parameters as never }],
        })
        .finalMessage();
      expect(first.content).toEqual([
        ...BLOCKS,
        { type: 'text', text: 'Green.' },
        { type: 'tool_use', id: 'toolu_7', name: 'look', input: { zoom: 3 } },
      ]);
      expect(first.stop_reason).toBe('tool_use');

      const before = anthropic.requests.length;
      anthropic.answer({ ...ANSWER, toolCalls: [], finish: 'stop' });
      await client.messages.create({
        model: CLAUDE,
        max_tokens: 4000,
        messages: [
          question,
          { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_7', content: 'green indeed' }],
          },
        ],
        tools: [{ name: LOOK.name, description: LOOK.description, input_schema: LOOK.parameters as never }],
      } as Anthropic.MessageCreateParamsNonStreaming);
      const sent = body(received(anthropic, before)) as { messages: Json[] };
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          ...BLOCKS,
          { type: 'text', text: 'Green.' },
          { type: 'tool_use', id: 'toolu_7', name: 'look', input: { zoom: 3 } },
        ],
      });
    });

    it('chat completions (streamed) -> claude: reasoning_content and thinking_blocks; sent back, unchanged upstream', async () => {
      anthropic.answer(SIGNED);
      const stream = await openaiClient().chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Which colour?' }],
        tools: [{ type: 'function', function: LOOK }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let reasoning = '';
      let text = '';
      const blocks: unknown[] = [];
      const args: string[] = [];
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        usage = chunk.usage ?? usage;
        const delta = chunk.choices[0]?.delta as
          | (OpenAI.Chat.ChatCompletionChunk.Choice.Delta & {
              reasoning_content?: string;
              thinking_blocks?: unknown[];
            })
          | undefined;
        if (!delta) continue;
        reasoning += delta.reasoning_content ?? '';
        text += delta.content ?? '';
        blocks.push(...(delta.thinking_blocks ?? []));
        for (const call of delta.tool_calls ?? []) args.push(call.function?.arguments ?? '');
      }
      expect(reasoning).toBe('The user wants a colour.Green it is.');
      expect(text).toBe('Green.');
      expect(blocks).toEqual(BLOCKS);
      expect(args.join('')).toBe('{"zoom":3}');
      expect(usage).toMatchObject({
        prompt_tokens: 300,
        completion_tokens: 90,
        prompt_tokens_details: { cached_tokens: 100 },
      });

      const before = anthropic.requests.length;
      anthropic.answer({ ...ANSWER, toolCalls: [], finish: 'stop' });
      await openaiClient().chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'user', content: 'Which colour?' },
          {
            role: 'assistant',
            content: 'Green.',
            tool_calls: [
              { id: 'toolu_7', type: 'function', function: { name: 'look', arguments: '{"zoom":3}' } },
            ],
            ...({ reasoning_content: reasoning, thinking_blocks: blocks } as object),
          },
          { role: 'tool', tool_call_id: 'toolu_7', content: 'green indeed' },
        ],
        tools: [{ type: 'function', function: LOOK }],
      });
      const sent = body(received(anthropic, before)) as { messages: Json[] };
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          ...BLOCKS,
          { type: 'text', text: 'Green.' },
          { type: 'tool_use', id: 'toolu_7', name: 'look', input: { zoom: 3 } },
        ],
      });
    });

    it('generate content (streamed) -> gemini: thought parts come back as thoughts; chat completions reads them as reasoning', async () => {
      const THOUGHTS = {
        reasoning: [{ text: 'Consider the hue.' }],
        text: ['Gre', 'en.'],
        finish: 'stop',
        usage: { input: 50, cachedInput: 20, output: 30, reasoning: 12 },
      } satisfies AnswerScript;
      gemini.answer(THOUGHTS);
      const google = new GoogleGenAI({
        apiKey,
        httpOptions: { baseUrl: app.baseUrl, fetch: sdkFetch } as never,
      });
      let thoughts = '';
      let text = '';
      let usage: {
        promptTokenCount?: number;
        cachedContentTokenCount?: number;
        thoughtsTokenCount?: number;
      } = {};
      for await (const chunk of await google.models.generateContentStream({
        model: GEMINI,
        contents: 'Which colour?',
        config: { maxOutputTokens: 4000, thinkingConfig: { includeThoughts: true, thinkingBudget: 2000 } },
      })) {
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          if (part.thought) thoughts += part.text ?? '';
          else text += part.text ?? '';
        }
        usage = chunk.usageMetadata ?? usage;
      }
      expect(thoughts).toBe('Consider the hue.');
      expect(text).toBe('Green.');
      expect(usage).toMatchObject({
        promptTokenCount: 50,
        cachedContentTokenCount: 20,
        thoughtsTokenCount: 12,
      });

      gemini.answer(THOUGHTS);
      const whole = await openaiClient().chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Which colour?' }],
        reasoning_effort: 'low',
        max_tokens: 4000,
      });
      const message = whole.choices[0]!.message as OpenAI.Chat.ChatCompletionMessage & {
        reasoning_content?: string;
      };
      expect(message.reasoning_content).toBe('Consider the hue.');
      expect(message.content).toBe('Green.');
      expect(whole.usage).toMatchObject({
        prompt_tokens: 50,
        completion_tokens: 30,
        completion_tokens_details: { reasoning_tokens: 12 },
        prompt_tokens_details: { cached_tokens: 20 },
      });
    });

    it('the native API -> claude: the record’s message carries the signed blocks; its next task sends them back', async () => {
      const auth = { authorization: `Bearer ${apiKey}` };
      anthropic.answer(SIGNED);
      const question = { role: 'user', content: 'Which colour?' };
      const tools = [{ type: 'function', function: LOOK }];
      const created = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: auth,
        body: { model: CLAUDE, input: { messages: [question], tools } },
      });
      const first = await settled(dataOf(created)['taskId'] as string);
      const message = (first['output'] as { message: Json }).message;
      expect(message).toEqual({
        role: 'assistant',
        content: 'Green.',
        reasoning_content: 'The user wants a colour.Green it is.',
        thinking_blocks: BLOCKS,
        tool_calls: [
          { id: 'toolu_7', type: 'function', function: { name: 'look', arguments: '{"zoom":3}' } },
        ],
      });

      const before = anthropic.requests.length;
      anthropic.answer({ ...ANSWER, toolCalls: [], finish: 'stop' });
      const next = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: auth,
        body: {
          model: CLAUDE,
          input: {
            messages: [question, message, { role: 'tool', tool_call_id: 'toolu_7', content: 'green indeed' }],
            tools,
          },
        },
      });
      await settled(dataOf(next)['taskId'] as string);
      const sent = body(received(anthropic, before)) as { messages: Json[] };
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          ...BLOCKS,
          { type: 'text', text: 'Green.' },
          { type: 'tool_use', id: 'toolu_7', name: 'look', input: { zoom: 3 } },
        ],
      });
    });

    it('responses (streamed) -> claude: one reasoning item per signed block, which sent back reaches Anthropic unchanged', async () => {
      anthropic.answer(SIGNED);
      const stream = openaiClient().responses.stream({
        model: CLAUDE,
        input: 'Which colour?',
        tools: [{ type: 'function', ...LOOK, strict: null }],
      });
      const response = await stream.finalResponse();
      const items = response.output;
      expect(items.filter((item) => item.type === 'reasoning')).toHaveLength(3);
      expect(response.output_text).toBe('Green.');

      const before = anthropic.requests.length;
      anthropic.answer({ ...ANSWER, toolCalls: [], finish: 'stop' });
      await openaiClient().responses.create({
        model: CLAUDE,
        input: [
          { role: 'user', content: 'Which colour?' },
          ...(items as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: 'toolu_7', output: 'green indeed' },
        ],
        tools: [{ type: 'function', ...LOOK, strict: null }],
      });
      const sent = body(received(anthropic, before)) as { messages: Json[] };
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          ...BLOCKS,
          { type: 'text', text: 'Green.' },
          { type: 'tool_use', id: 'toolu_7', name: 'look', input: { zoom: 3 } },
        ],
      });
    });
  });
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
