import { ApiError, GoogleGenAI, Type, FunctionCallingConfigMode } from '@google/genai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { thinkingToken } from '../canonical/reasoning';
import { ProtocolError, aggregate, type ChatResult } from '../canonical/text-input';
import type { ChatEvent } from '@gen/contracts';
import {
  GenerateContentArrayWriter,
  GenerateContentSseWriter,
  mapGenerateContentRequest,
  writeGenerateContentError,
  writeGenerateContentResponse,
} from './index';

/** What the local server answers: a status, headers, and the body as the pieces written one by one. */
interface Reply {
  status: number;
  headers: Record<string, string>;
  pieces: string[];
}
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A node:http server that records each request and replays the next reply, one write per piece. */
class ReplayServer {
  readonly seen: Seen[] = [];
  private replies: Reply[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<ReplayServer> {
    const replay = new ReplayServer(createServer());
    replay.server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        replay.seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: text ? JSON.parse(text) : undefined,
        });
        const reply = replay.replies.shift();
        if (!reply) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(reply.status, reply.headers);
        void (async () => {
          for (const piece of reply.pieces) {
            res.write(piece);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          res.end();
        })();
      });
    });
    await new Promise<void>((resolve) => replay.server.listen(0, '127.0.0.1', resolve));
    return replay;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(reply: Reply): void {
    this.replies.push(reply);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const MODEL = 'acme/chat-1';
const sdkFetch: typeof fetch = (url, init) => fetch(url, init);
const BASE = { id: 'req_01ABC', model: MODEL, created: 1_700_000_000 };
const TOOL_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'The user wants ' },
  { type: 'reasoning', delta: 'the weather.' },
  { type: 'text', delta: 'Checking ' },
  { type: 'text', delta: 'both cities.' },
  { type: 'tool_call', index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":' },
  { type: 'tool_call', index: 1, id: 'call_b', name: 'get_weather', argumentsDelta: '{"city":"Oslo"}' },
  { type: 'tool_call', index: 0, argumentsDelta: '"Rome","unit":"c"}' },
  { type: 'usage', inputTokens: 120, cachedInputTokens: 64, outputTokens: 45, reasoningTokens: 30 },
  { type: 'finish', reason: 'tool_calls' },
];
const toolResult = (): ChatResult => aggregate(TOOL_EVENTS, BASE);
/** Claude's extended thinking with a tool: a signed thinking block, a redacted one, text, a call. */
const SIGNED_EVENTS: ChatEvent[] = [
  { type: 'reasoning', delta: 'Paris weather: ' },
  { type: 'reasoning', delta: 'call the tool.' },
  { type: 'reasoning_signature', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi' },
  { type: 'redacted_reasoning', data: 'EmwKAhgBEgy3va3pzix' },
  { type: 'text', delta: 'Checking.' },
  { type: 'tool_call', index: 0, id: 'toolu_a', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
  { type: 'finish', reason: 'tool_calls' },
];
const SIGNED_BLOCKS = [
  {
    type: 'thinking' as const,
    thinking: 'Paris weather: call the tool.',
    signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi',
  },
  { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix' },
];
const USAGE_METADATA = {
  promptTokenCount: 120,
  candidatesTokenCount: 15,
  thoughtsTokenCount: 30,
  cachedContentTokenCount: 64,
  totalTokenCount: 165,
};

describe('generate content through the @google/genai SDK', () => {
  let server: ReplayServer;
  let ai: GoogleGenAI;
  beforeEach(async () => {
    server = await ReplayServer.start();
    // Jest's sandbox hides Node's undici dispatcher the SDK looks up on globalThis, so the SDK is handed the
    // same global fetch explicitly; the requests still travel over real HTTP to the local server.
    ai = new GoogleGenAI({
      apiKey: 'sk-test-key',
      apiVersion: 'v1beta',
      httpOptions: { baseUrl: server.baseUrl, fetch: sdkFetch },
    });
  });
  afterEach(() => server.close());

  it('sends the model in the URL with slashes kept and the key in x-goog-api-key; its body maps', async () => {
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify(writeGenerateContentResponse(toolResult(), { includeThoughts: true }))],
    });
    await ai.models.generateContent({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Rome?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { output: '21 C, sunny' } } }],
        },
      ],
      config: {
        systemInstruction: 'Answer briefly.',
        maxOutputTokens: 256,
        temperature: 0.4,
        topP: 0.9,
        topK: 40,
        stopSequences: ['END'],
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather by city',
                parameters: {
                  type: Type.OBJECT,
                  properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, nullable: true } },
                  required: ['city'],
                },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } },
      },
    });
    const [seen] = server.seen;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/v1beta/models/acme/chat-1:generateContent');
    expect(seen?.headers['x-goog-api-key']).toBe('sk-test-key');
    expect(seen?.headers['authorization']).toBeUndefined();
    const mapped = mapGenerateContentRequest(seen?.body, { model: MODEL, stream: false });
    expect(mapped).toEqual({
      model: MODEL,
      stream: false,
      includeUsage: true,
      ignored: ['safetySettings'],
      input: {
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Weather in Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_0',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '21 C, sunny' },
        ],
        max_tokens: 256,
        temperature: 0.4,
        top_p: 0.9,
        top_k: 40,
        stop: ['END'],
        reasoning_effort: 'medium',
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather by city',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' }, unit: { type: ['string', 'null'] } },
                required: ['city'],
              },
            },
          },
        ],
        tool_choice: 'auto',
      },
      paths: {
        messages: 'contents',
        max_tokens: 'generationConfig.maxOutputTokens',
        temperature: 'generationConfig.temperature',
        top_p: 'generationConfig.topP',
        top_k: 'generationConfig.topK',
        stop: 'generationConfig.stopSequences',
        reasoning_effort: 'generationConfig.thinkingConfig.thinkingBudget',
        tools: 'tools',
        tool_choice: 'toolConfig.functionCallingConfig',
      },
    });
  });

  it('without apiVersion, SDK 3.x sends /v1/models/...:generateContent (not /v1beta): the router must know', async () => {
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      pieces: [
        JSON.stringify(writeGenerateContentResponse(aggregate([{ type: 'text', delta: 'ok' }], BASE))),
      ],
    });
    const plain = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.baseUrl, fetch: sdkFetch } });
    expect((await plain.models.generateContent({ model: MODEL, contents: 'x' })).text).toBe('ok');
    expect(server.seen[0]?.url).toBe('/v1/models/acme/chat-1:generateContent');
  });

  it('reads a non-streamed answer: thoughts, text, function calls with parsed args, usage, ids', async () => {
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify(writeGenerateContentResponse(toolResult(), { includeThoughts: true }))],
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await ai.models.generateContent({ model: MODEL, contents: 'Weather in Rome and Oslo?' });
    expect(response.text).toBe('Checking both cities.');
    warn.mockRestore();
    expect(response.functionCalls).toEqual([
      { id: 'call_a', name: 'get_weather', args: { city: 'Rome', unit: 'c' } },
      { id: 'call_b', name: 'get_weather', args: { city: 'Oslo' } },
    ]);
    expect(response.candidates?.[0]?.content?.parts?.[0]).toEqual({
      text: 'The user wants the weather.',
      thought: true,
    });
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.candidates?.[0]?.index).toBe(0);
    expect(response.usageMetadata).toEqual(USAGE_METADATA);
    expect(response.responseId).toBe('req_01ABC');
    expect(response.modelVersion).toBe(MODEL);
  });

  it('streams over SSE (?alt=sse): text chunk by chunk, the last with calls, finishReason and usage', async () => {
    const writer = new GenerateContentSseWriter(BASE, { includeThoughts: true });
    const frames = [
      ...writer.start(),
      ...TOOL_EVENTS.flatMap((e) => writer.event(e)),
      ...writer.end(toolResult()),
    ];
    server.reply({ status: 200, headers: { 'content-type': 'text/event-stream' }, pieces: frames });
    const stream = await ai.models.generateContentStream({ model: MODEL, contents: 'Weather?' });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(server.seen[0]?.url).toBe('/v1beta/models/acme/chat-1:streamGenerateContent?alt=sse');
    expect(server.seen[0]?.headers['x-goog-api-key']).toBe('sk-test-key');
    expect(chunks.map((c) => c.candidates?.[0]?.content?.parts)).toEqual([
      [{ text: 'The user wants ', thought: true }],
      [{ text: 'the weather.', thought: true }],
      [{ text: 'Checking ' }],
      [{ text: 'both cities.' }],
      [
        { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Rome', unit: 'c' } } },
        { functionCall: { id: 'call_b', name: 'get_weather', args: { city: 'Oslo' } } },
      ],
    ]);
    expect(chunks.map((c) => c.candidates?.[0]?.finishReason)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'STOP',
    ]);
    expect(chunks.map((c) => c.usageMetadata)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      USAGE_METADATA,
    ]);
    expect(chunks.every((c) => c.responseId === 'req_01ABC' && c.modelVersion === MODEL)).toBe(true);
    expect(frames.join('')).not.toContain('[DONE]');
  });

  it('leaves thoughts out of the stream and the answer unless includeThoughts was asked', async () => {
    const writer = new GenerateContentSseWriter(BASE);
    const frames = [...TOOL_EVENTS.flatMap((e) => writer.event(e)), ...writer.end(toolResult())];
    server.reply({ status: 200, headers: { 'content-type': 'text/event-stream' }, pieces: frames });
    const texts: (string | undefined)[] = [];
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'x' })) {
      texts.push(chunk.text);
    }
    warn.mockRestore();
    expect(texts).toEqual(['Checking ', 'both cities.', undefined]);
    expect(writeGenerateContentResponse(toolResult()).candidates[0]?.content.parts[0]).toEqual({
      text: 'Checking both cities.',
    });
  });

  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [402, 'FAILED_PRECONDITION'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('a %i error body is read as the SDK ApiError with that status (%s)', async (status, name) => {
    const error = new ProtocolError(status, 'some_code', 'server.error');
    const body = writeGenerateContentError(error, 'Localized text.');
    expect(body).toEqual({ error: { code: status, message: 'Localized text.', status: name } });
    server.reply({ status, headers: { 'content-type': 'application/json' }, pieces: [JSON.stringify(body)] });
    const failure = await ai.models.generateContent({ model: MODEL, contents: 'x' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(status);
    expect(JSON.parse((failure as ApiError).message)).toEqual(body);
    expect(server.seen).toHaveLength(1);
  });

  it('signed reasoning: thought text when asked, a signature part per block; sent back, the blocks map unchanged', async () => {
    const writer = new GenerateContentSseWriter(BASE, { includeThoughts: true });
    const result = aggregate(SIGNED_EVENTS, BASE);
    const frames = [...SIGNED_EVENTS.flatMap((e) => writer.event(e)), ...writer.end(result)];
    server.reply({ status: 200, headers: { 'content-type': 'text/event-stream' }, pieces: frames });
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'Weather?' })) {
      chunks.push(chunk);
    }
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(parts).toEqual([
      { text: 'Paris weather: ', thought: true },
      { text: 'call the tool.', thought: true },
      { thoughtSignature: thinkingToken(SIGNED_BLOCKS[0]!) },
      { thoughtSignature: thinkingToken(SIGNED_BLOCKS[1]!) },
      { text: 'Checking.' },
      { functionCall: { id: 'toolu_a', name: 'get_weather', args: { city: 'Paris' } } },
    ]);
    // The non-streamed answer has the same parts, the thought text whole.
    expect(
      writeGenerateContentResponse(result, { includeThoughts: true }).candidates[0]?.content.parts,
    ).toEqual([{ text: 'Paris weather: call the tool.', thought: true }, ...parts.slice(2)]);

    // Google's rule for function calling: the model turn goes back with all its parts, as they came.
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      pieces: [
        JSON.stringify(writeGenerateContentResponse(aggregate([{ type: 'text', delta: 'Sunny.' }], BASE))),
      ],
    });
    await ai.models.generateContent({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'toolu_a', name: 'get_weather', response: { output: '21 C' } } }],
        },
      ],
    });
    const mapped = mapGenerateContentRequest(server.seen[1]?.body, { model: MODEL, stream: false });
    expect(mapped.input.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      reasoning_content: 'Paris weather: call the tool.',
      thinking_blocks: SIGNED_BLOCKS,
      tool_calls: [
        { id: 'toolu_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(mapped.ignored).toEqual([]);
  });

  it('signed reasoning without includeThoughts: no thought text, the signature parts still there', async () => {
    server.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify(writeGenerateContentResponse(aggregate(SIGNED_EVENTS, BASE)))],
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await ai.models.generateContent({ model: MODEL, contents: 'Weather?' });
    warn.mockRestore();
    expect(response.text).toBe('Checking.');
    expect(response.candidates?.[0]?.content?.parts).toEqual([
      { thoughtSignature: thinkingToken(SIGNED_BLOCKS[0]!) },
      { thoughtSignature: thinkingToken(SIGNED_BLOCKS[1]!) },
      { text: 'Checking.' },
      { functionCall: { id: 'toolu_a', name: 'get_weather', args: { city: 'Paris' } } },
    ]);
  });

  it('a refused field carries its path as a BadRequest field violation', () => {
    const body = writeGenerateContentError(
      new ProtocolError(
        400,
        'unsupported_parameter',
        'generate_content.unsupported_parameter',
        {},
        'tools.0.googleSearch',
      ),
      'The parameter tools.0.googleSearch is not supported.',
    );
    expect(body.error.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [
          {
            field: 'tools.0.googleSearch',
            description: 'The parameter tools.0.googleSearch is not supported.',
          },
        ],
      },
    ]);
  });

  it('a failure after the SSE stream started is an error chunk the SDK raises as ApiError after the text', async () => {
    const writer = new GenerateContentSseWriter(BASE);
    const frames = [
      ...writer.start(),
      ...writer.event({ type: 'text', delta: 'Partial ' }),
      ...writer.error(new ProtocolError(503, 'upstream_failed', 'server.unavailable'), 'Try again.'),
    ];
    server.reply({ status: 200, headers: { 'content-type': 'text/event-stream' }, pieces: frames });
    const texts: (string | undefined)[] = [];
    const failure = await (async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'x' })) {
        texts.push(chunk.text);
      }
    })().catch((e: unknown) => e);
    expect(texts).toEqual(['Partial ']);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(503);
    expect((failure as ApiError).message).toContain('UNAVAILABLE');
    expect(frames.at(-1)).toBe(
      'data: {"error":{"code":503,"message":"Try again.","status":"UNAVAILABLE"}}\n\n',
    );
  });
});

describe('the JSON array stream (no alt=sse), read over real HTTP', () => {
  let server: ReplayServer;
  beforeEach(async () => (server = await ReplayServer.start()));
  afterEach(() => server.close());

  /** Reads the body as it arrives: each read is a prefix of one JSON array. */
  async function read(pieces: string[]): Promise<{ reads: string[]; body: unknown }> {
    server.reply({ status: 200, headers: { 'content-type': 'application/json' }, pieces });
    const response = await fetch(`${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent`, {
      method: 'POST',
      body: '{}',
    });
    const reads: string[] = [];
    const decoder = new TextDecoder();
    for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
      reads.push(decoder.decode(bytes, { stream: true }));
    }
    return { reads, body: JSON.parse(reads.join('')) };
  }

  it('writes [ then the chunks separated by commas then ], incrementally, parsing as one array', async () => {
    const writer = new GenerateContentArrayWriter(BASE);
    const pieces = [
      ...writer.start(),
      ...TOOL_EVENTS.flatMap((e) => writer.event(e)),
      ...writer.end(toolResult()),
    ];
    expect(pieces[0]).toBe('[');
    expect(pieces.at(-1)).toBe(']');
    expect(pieces.slice(2, -1).every((p) => p.startsWith(',\r\n{'))).toBe(true);
    const { reads, body } = await read(pieces);
    expect(reads.length).toBeGreaterThan(1);
    expect(body).toEqual([
      {
        candidates: [{ content: { parts: [{ text: 'Checking ' }], role: 'model' }, index: 0 }],
        modelVersion: MODEL,
        responseId: 'req_01ABC',
      },
      {
        candidates: [{ content: { parts: [{ text: 'both cities.' }], role: 'model' }, index: 0 }],
        modelVersion: MODEL,
        responseId: 'req_01ABC',
      },
      {
        candidates: [
          {
            content: {
              parts: [
                { functionCall: { name: 'get_weather', args: { city: 'Rome', unit: 'c' }, id: 'call_a' } },
                { functionCall: { name: 'get_weather', args: { city: 'Oslo' }, id: 'call_b' } },
              ],
              role: 'model',
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: USAGE_METADATA,
        modelVersion: MODEL,
        responseId: 'req_01ABC',
      },
    ]);
  });

  it('after a failure the array holds an error chunk and is still closed', async () => {
    const writer = new GenerateContentArrayWriter(BASE);
    const pieces = [
      ...writer.start(),
      ...writer.event({ type: 'text', delta: 'Hi' }),
      ...writer.error(new ProtocolError(500, 'internal_error', 'server.error'), 'Internal error.'),
    ];
    const { body } = await read(pieces);
    expect(body).toEqual([
      {
        candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' }, index: 0 }],
        modelVersion: MODEL,
        responseId: 'req_01ABC',
      },
      { error: { code: 500, message: 'Internal error.', status: 'INTERNAL' } },
    ]);
  });

  it('an error before any chunk still makes a valid one-item array', () => {
    const writer = new GenerateContentArrayWriter(BASE);
    const pieces = [
      ...writer.start(),
      ...writer.error(new ProtocolError(429, 'rate_limited', 'rate.limited'), 'Slow down.'),
    ];
    expect(JSON.parse(pieces.join(''))).toEqual([
      { error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED' } },
    ]);
  });
});
