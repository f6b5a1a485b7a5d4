import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkScript,
  joined,
  piecesOf,
  type AnswerScript,
  type ErrorScript,
  type RecordedUpstreamRequest,
} from './upstream-script';

/*
 * Fake upstreams that speak each provider's real wire format, as real HTTP servers on 127.0.0.1, recording every
 * request exactly as it arrived. The shapes follow the providers' API references and the official SDKs' types
 * (openai 7.x ChatCompletionChunk, @anthropic-ai/sdk 1.x RawMessageStreamEvent, @google/genai 3.x
 * GenerateContentResponse); recording-upstreams.spec.ts points those SDKs at these servers to prove it.
 * Nothing here comes from the service's own adapters.
 */

export interface RecordingOptions {
  /** Pause between two frames (default 1 ms; 0: the next turn of the event loop). */
  frameGapMs?: number;
  /** Write each frame in two writes, cut in the middle of its bytes (possibly inside a UTF-8 character). */
  splitFrames?: boolean;
}

export interface RecordingOpenAiOptions extends RecordingOptions {
  /**
   * The delta field reasoning is streamed in: `reasoning_content` (DeepSeek, vLLM before 0.10, the default) or
   * `reasoning` (OpenRouter, newer vLLM). OpenAI itself streams no reasoning text on chat completions.
   */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

export interface RecordingGeminiOptions extends RecordingOptions {
  /** Send the scripted call ids as `functionCall.id` (default false: like the Gemini API, calls carry no id). */
  functionCallIds?: boolean;
  /** The end of an SSE line (default CRLF, as the Gemini API writes its event stream). */
  lineEnding?: '\r\n' | '\n';
}

type Reply = { answer: AnswerScript } | { error: ErrorScript };

/** How a request is answered: streamed, as one JSON body, or (a wrong path, a body that is not JSON) refused. */
type Route = { kind: 'sse' | 'json' | 'json-array'; model: string } | { kind: 'error'; error: ErrorScript };

/** A rendered stream: `content` up to the end of the generated content, then `tail` (the finish). */
interface Rendered {
  contentType: string;
  content: string[];
  tail: string[];
  /** The frames that replace `tail` when the script is `cut` (default none). */
  cut?: string[];
  /** The frames that replace `tail` when the script ends with a `streamError`. */
  error: (error: NonNullable<AnswerScript['streamError']>) => string[];
  /** Written before the first frame and after the last (the brackets of a JSON array stream). */
  open?: string;
  close?: string;
}

const CREATED = 1_767_225_600;

/** The server, the queue of scripted replies and the recording, shared by the three providers. */
abstract class RecordingUpstream {
  readonly requests: RecordedUpstreamRequest[] = [];
  private readonly replies: Reply[] = [];
  private served = 0;

  protected constructor(
    private readonly server: Server,
    protected readonly options: RecordingOptions,
  ) {
    server.on('request', (req, res) => this.receive(req, res));
  }

  protected static async listen<T extends RecordingUpstream>(upstream: T, server: Server): Promise<T> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return upstream;
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** What a client is configured with, as it would be with the real provider. */
  abstract get baseUrl(): string;

  /** Queues answers, served one a request in the order queued (interleaved with `fail`). */
  answer(...scripts: AnswerScript[]): this {
    for (const script of scripts) {
      this.check(script);
      this.replies.push({ answer: script });
    }
    return this;
  }

  /** Queues HTTP errors in the provider's error shape, served one a request in the order queued. */
  fail(...errors: ErrorScript[]): this {
    this.replies.push(...errors.map((error) => ({ error })));
    return this;
  }

  /** How many scripted replies are still queued. */
  get pending(): number {
    return this.replies.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  protected abstract check(script: AnswerScript): void;
  protected abstract route(request: RecordedUpstreamRequest): Route;
  protected abstract renderStream(
    script: AnswerScript,
    request: RecordedUpstreamRequest,
    model: string,
  ): Rendered;
  protected abstract renderJson(
    script: AnswerScript,
    request: RecordedUpstreamRequest,
    model: string,
  ): unknown;
  protected abstract errorReply(error: ErrorScript): { headers: Record<string, string>; body: unknown };
  /** The HTTP error a `streamError` is to a request that does not stream. */
  protected abstract streamErrorAsHttp(error: NonNullable<AnswerScript['streamError']>): ErrorScript;

  protected nextId(): number {
    return ++this.served;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const rawBody = Buffer.concat(parts);
      let body: unknown;
      try {
        body = rawBody.length ? JSON.parse(rawBody.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? '';
      const request: RecordedUpstreamRequest = {
        method: req.method ?? '',
        path: url.split('?')[0] ?? '',
        url,
        headers: { ...req.headers },
        rawBody,
        body,
      };
      this.requests.push(request);
      this.respond(request, res).catch((error: unknown) => {
        // A fault of the fake itself: answered as a 500 (when still possible) rather than an unhandled rejection.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        else res.destroy();
      });
    });
  }

  private async respond(request: RecordedUpstreamRequest, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined);
    const route = this.route(request);
    // Refused before generating anything, as the real API does: the queued answer stays for the next request.
    if (route.kind === 'error') return this.sendError(res, route.error);
    const reply = this.replies.shift() ?? {
      error: { status: 500, message: `${this.constructor.name}: no answer scripted for this request` },
    };
    if ('error' in reply) return this.sendError(res, reply.error);
    const script = reply.answer;
    if (script.delayMs) await sleep(script.delayMs);
    if (res.destroyed) return;
    if (route.kind === 'json') {
      if (script.streamError) return this.sendError(res, this.streamErrorAsHttp(script.streamError));
      const body = JSON.stringify(this.renderJson(script, request, route.model));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const rendered = this.renderStream(script, request, route.model);
    res.writeHead(200, { 'content-type': rendered.contentType, 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (rendered.open) res.write(rendered.open);
    const tail = script.cut
      ? (rendered.cut ?? [])
      : script.streamError
        ? rendered.error(script.streamError)
        : rendered.tail;
    for (const frame of [...rendered.content, ...tail]) {
      if (res.destroyed) return;
      await this.writeFrame(res, frame);
    }
    if (script.cut === 'drop') {
      await sleep(5);
      res.socket?.destroy();
    } else if (script.cut !== 'hold') {
      res.end(rendered.close);
    }
  }

  private async writeFrame(res: ServerResponse, frame: string): Promise<void> {
    const bytes = Buffer.from(frame, 'utf8');
    const cut = this.options.splitFrames && bytes.length > 1 ? Math.floor(bytes.length / 2) : bytes.length;
    for (const piece of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
      if (piece.length === 0 || res.destroyed) continue;
      res.write(piece);
      await sleep(this.options.frameGapMs ?? 1);
    }
  }

  private async sendError(res: ServerResponse, error: ErrorScript): Promise<void> {
    if (error.delayMs) await sleep(error.delayMs);
    if (res.destroyed) return;
    const { headers, body } = this.errorReply(error);
    res
      .writeHead(error.status, { 'content-type': 'application/json', ...headers, ...error.headers })
      .end(JSON.stringify(body));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAI chat completions

const OPENAI_ERROR_TYPES: Record<number, string> = { 429: 'requests' };
const OPENAI_ERROR_CODES: Record<number, string> = {
  401: 'invalid_api_key',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
};

/**
 * OpenAI chat completions at `POST {baseUrl}/chat/completions` (`baseUrl` ends in `/v1`, like
 * `https://api.openai.com/v1`). With `"stream": true` it answers `chat.completion.chunk` frames (`data: {...}`),
 * the usage chunk (`choices: []`) only when `stream_options.include_usage` asks for it, then `data: [DONE]`;
 * otherwise one `chat.completion` object. Reasoning goes out as `delta.reasoning_content`, as OpenAI-compatible
 * servers send it (DeepSeek, vLLM); a script with reasoning signatures or redacted blocks is refused, since no
 * OpenAI-compatible stream carries them.
 */
export class RecordingOpenAiUpstream extends RecordingUpstream {
  declare protected readonly options: RecordingOpenAiOptions;

  static start(options: RecordingOpenAiOptions = {}): Promise<RecordingOpenAiUpstream> {
    const server = createServer();
    return RecordingUpstream.listen(new RecordingOpenAiUpstream(server, options), server);
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  protected check(script: AnswerScript): void {
    checkScript(script, 'OpenAI');
    if (script.redacted?.length) {
      throw new Error('OpenAI script: chat completions have no redacted reasoning');
    }
    if (script.reasoning?.some((r) => r.signature !== undefined)) {
      throw new Error('OpenAI script: chat completions carry no reasoning signatures');
    }
    if (script.toolCalls?.some((c) => c.signature !== undefined)) {
      throw new Error('OpenAI script: tool calls carry no signatures');
    }
  }

  protected route(request: RecordedUpstreamRequest): Route {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return {
        kind: 'error',
        error: { status: 404, message: `Invalid URL (${request.method} ${request.url})`, code: null },
      };
    }
    const body = request.body as { model?: unknown; stream?: unknown } | undefined;
    if (!body || typeof body !== 'object') {
      return {
        kind: 'error',
        error: { status: 400, message: 'We could not parse the JSON body of your request.' },
      };
    }
    return { kind: body.stream === true ? 'sse' : 'json', model: String(body.model ?? 'gpt-recording') };
  }

  protected renderStream(script: AnswerScript, request: RecordedUpstreamRequest, model: string): Rendered {
    const body = request.body as {
      stream_options?: { include_usage?: unknown; include_obfuscation?: unknown };
    };
    const includeUsage = body.stream_options?.include_usage === true;
    const obfuscate = body.stream_options?.include_obfuscation !== false;
    const id = `chatcmpl-rec${this.nextId()}`;
    let n = 0;
    const chunk = (choices: unknown[], usage?: unknown): string =>
      frame({
        id,
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        service_tier: 'default',
        system_fingerprint: 'fp_recording',
        choices,
        ...(includeUsage ? { usage: usage ?? null } : {}),
        ...(obfuscate ? { obfuscation: 'ObFu5c4t3'.slice(0, 1 + (n++ % 9)) } : {}),
      });
    const delta = (d: Record<string, unknown>, finish: string | null = null): string =>
      chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
    const field = this.options.reasoningField ?? 'reasoning_content';
    const text = piecesOf(script.text, 3);
    const content = [delta({ role: 'assistant', content: text.length ? '' : null, refusal: null })];
    for (const block of script.reasoning ?? []) {
      for (const piece of piecesOf(block.text, 2)) content.push(delta({ content: null, [field]: piece }));
    }
    for (const piece of text) content.push(delta({ content: piece }));
    (script.toolCalls ?? []).forEach((call, index) => {
      content.push(
        delta({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      for (const fragment of piecesOf(call.arguments, 4)) {
        content.push(delta({ tool_calls: [{ index, function: { arguments: fragment } }] }));
      }
    });
    const tail = [delta({}, script.nativeFinish ?? script.finish)];
    if (includeUsage) tail.push(chunk([], openAiUsage(script.usage)));
    tail.push('data: [DONE]\n\n');
    const error = (e: NonNullable<AnswerScript['streamError']>): string[] => [
      frame({
        error: { message: e.message, type: e.type ?? 'server_error', param: null, code: e.code ?? null },
      }),
    ];
    return { contentType: 'text/event-stream; charset=utf-8', content, tail, error };
  }

  protected renderJson(script: AnswerScript, _request: RecordedUpstreamRequest, model: string): unknown {
    const field = this.options.reasoningField ?? 'reasoning_content';
    const reasoning = (script.reasoning ?? []).map((r) => joined(r.text)).join('');
    const calls = (script.toolCalls ?? []).map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: joined(call.arguments) },
    }));
    return {
      id: `chatcmpl-rec${this.nextId()}`,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: joined(script.text) || null,
            refusal: null,
            annotations: [],
            ...(reasoning ? { [field]: reasoning } : {}),
            ...(calls.length ? { tool_calls: calls } : {}),
          },
          logprobs: null,
          finish_reason: script.nativeFinish ?? script.finish,
        },
      ],
      usage: openAiUsage(script.usage),
      service_tier: 'default',
      system_fingerprint: 'fp_recording',
    };
  }

  protected errorReply(error: ErrorScript): { headers: Record<string, string>; body: unknown } {
    const type =
      error.type ??
      OPENAI_ERROR_TYPES[error.status] ??
      (error.status >= 500 ? 'server_error' : 'invalid_request_error');
    return {
      headers: { 'x-request-id': `req_rec${this.nextId()}` },
      body: {
        error: {
          message: error.message,
          type,
          param: null,
          code: error.code !== undefined ? error.code : (OPENAI_ERROR_CODES[error.status] ?? null),
        },
      },
    };
  }

  protected streamErrorAsHttp(error: NonNullable<AnswerScript['streamError']>): ErrorScript {
    return { status: error.status ?? 500, message: error.message, type: error.type, code: error.code };
  }
}

function openAiUsage(usage: AnswerScript['usage']): unknown {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cachedInput, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Anthropic messages

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const ANTHROPIC_STOP: Record<AnswerScript['finish'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/**
 * Anthropic messages at `POST {baseUrl}/v1/messages` (`baseUrl` is the origin, like `https://api.anthropic.com`).
 * With `"stream": true`: `message_start` (input usage: `input_tokens` excludes the cache reads, reported as
 * `cache_read_input_tokens`), `ping`, one content block per thinking block (`thinking_delta`s, then its
 * `signature_delta`), redacted_thinking block, text block and tool_use block (`input_json_delta` fragments of
 * `partial_json`), `message_delta` (`stop_reason`, cumulative usage with `output_tokens`), `message_stop`.
 * Otherwise one Message object. Errors: `{"type":"error","error":{"type","message"},"request_id"}`.
 */
export class RecordingAnthropicUpstream extends RecordingUpstream {
  static start(options: RecordingOptions = {}): Promise<RecordingAnthropicUpstream> {
    const server = createServer();
    return RecordingUpstream.listen(new RecordingAnthropicUpstream(server, options), server);
  }

  get baseUrl(): string {
    return this.origin;
  }

  protected check(script: AnswerScript): void {
    checkScript(script, 'Anthropic');
    if (script.toolCalls?.some((c) => c.signature !== undefined)) {
      throw new Error('Anthropic script: tool_use blocks carry no signatures');
    }
    for (const call of script.toolCalls ?? []) objectArguments(call, 'Anthropic', 'tool_use.input');
  }

  protected route(request: RecordedUpstreamRequest): Route {
    if (request.method !== 'POST' || request.path !== '/v1/messages') {
      return { kind: 'error', error: { status: 404, message: 'Not Found' } };
    }
    const body = request.body as { model?: unknown; stream?: unknown } | undefined;
    if (!body || typeof body !== 'object') {
      return {
        kind: 'error',
        error: { status: 400, message: 'There was an issue with your request body' },
      };
    }
    return { kind: body.stream === true ? 'sse' : 'json', model: String(body.model ?? 'claude-recording') };
  }

  protected renderStream(script: AnswerScript, _request: RecordedUpstreamRequest, model: string): Rendered {
    const usage = anthropicUsage(script.usage);
    const content = [
      event('message_start', {
        type: 'message_start',
        message: {
          id: `msg_rec${this.nextId()}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage.input, output_tokens: 1, service_tier: 'standard' },
        },
      }),
      event('ping', { type: 'ping' }),
    ];
    let index = 0;
    const block = (start: unknown, deltas: unknown[]): void => {
      content.push(
        event('content_block_start', { type: 'content_block_start', index, content_block: start }),
      );
      for (const delta of deltas) {
        content.push(event('content_block_delta', { type: 'content_block_delta', index, delta }));
      }
      content.push(event('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    };
    for (const thinking of script.reasoning ?? []) {
      const deltas: unknown[] = piecesOf(thinking.text, 2).map((piece) => ({
        type: 'thinking_delta',
        thinking: piece,
      }));
      if (thinking.signature !== undefined) {
        deltas.push({ type: 'signature_delta', signature: thinking.signature });
      }
      block({ type: 'thinking', thinking: '', signature: '' }, deltas);
    }
    for (const data of script.redacted ?? []) block({ type: 'redacted_thinking', data }, []);
    const text = piecesOf(script.text, 3);
    if (text.length) {
      block(
        { type: 'text', text: '' },
        text.map((piece) => ({ type: 'text_delta', text: piece })),
      );
    }
    for (const call of script.toolCalls ?? []) {
      const fragments = ['', ...piecesOf(call.arguments, 4)];
      block(
        { type: 'tool_use', id: call.id, name: call.name, input: {} },
        fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      );
    }
    const stopReason = script.nativeFinish ?? ANTHROPIC_STOP[script.finish];
    const tail = [
      event('message_delta', {
        type: 'message_delta',
        delta: {
          stop_reason: stopReason,
          stop_sequence: script.stopSequence ?? null,
          ...(stopReason === 'refusal'
            ? { stop_details: { type: 'refusal', category: null, explanation: null } }
            : {}),
        },
        usage: { ...usage.input, output_tokens: script.usage.output, ...usage.outputDetails },
      }),
      event('message_stop', { type: 'message_stop' }),
    ];
    const error = (e: NonNullable<AnswerScript['streamError']>): string[] => [
      event('error', { type: 'error', error: { type: e.type ?? 'overloaded_error', message: e.message } }),
    ];
    return { contentType: 'text/event-stream; charset=utf-8', content, tail, error };
  }

  protected renderJson(script: AnswerScript, _request: RecordedUpstreamRequest, model: string): unknown {
    const usage = anthropicUsage(script.usage);
    const content: unknown[] = [
      ...(script.reasoning ?? []).map((r) => ({
        type: 'thinking',
        thinking: joined(r.text),
        signature: r.signature ?? '',
      })),
      ...(script.redacted ?? []).map((data) => ({ type: 'redacted_thinking', data })),
      ...(joined(script.text) ? [{ type: 'text', text: joined(script.text) }] : []),
      ...(script.toolCalls ?? []).map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: objectArguments(call, 'Anthropic', 'tool_use.input'),
      })),
    ];
    const stopReason = script.nativeFinish ?? ANTHROPIC_STOP[script.finish];
    return {
      id: `msg_rec${this.nextId()}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: script.stopSequence ?? null,
      ...(stopReason === 'refusal'
        ? { stop_details: { type: 'refusal', category: null, explanation: null } }
        : {}),
      usage: {
        ...usage.input,
        output_tokens: script.usage.output,
        ...usage.outputDetails,
        service_tier: 'standard',
      },
    };
  }

  protected errorReply(error: ErrorScript): { headers: Record<string, string>; body: unknown } {
    const requestId = `req_rec${this.nextId()}`;
    const type = error.type ?? ANTHROPIC_ERROR_TYPES[error.status] ?? 'api_error';
    return {
      headers: { 'request-id': requestId },
      body: { type: 'error', error: { type, message: error.message }, request_id: requestId },
    };
  }

  protected streamErrorAsHttp(error: NonNullable<AnswerScript['streamError']>): ErrorScript {
    return { status: error.status ?? 529, message: error.message, type: error.type ?? 'overloaded_error' };
  }
}

/** Anthropic's input counts exclude the cache reads (`input_tokens` + `cache_read_input_tokens` = all input). */
function anthropicUsage(usage: AnswerScript['usage']): {
  input: Record<string, unknown>;
  outputDetails: Record<string, unknown>;
} {
  return {
    input: {
      input_tokens: usage.input - usage.cachedInput,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: usage.cachedInput,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    },
    outputDetails: usage.reasoning ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {},
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Google Gemini

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const GEMINI_FINISH: Record<AnswerScript['finish'], string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  // Gemini has no finish reason of its own for function calls: a turn that calls ends with STOP.
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
};

const GEMINI_PATH =
  /^\/(v1|v1beta|v1alpha)\/((?:models|tunedModels)\/[^:/]+):(streamGenerateContent|generateContent)$/;

/**
 * Google Gemini at `POST {baseUrl}/v1beta/models/{model}:streamGenerateContent?alt=sse` (`baseUrl` is the
 * origin, like `https://generativelanguage.googleapis.com`): `data: {GenerateContentResponse}` events, CRLF
 * line ends, no terminator. Thought parts (`thought: true`), text parts, all function calls whole in one chunk
 * (`args` parsed; Gemini does not fragment arguments), `finishReason` on the last chunk (STOP also for calls,
 * MAX_TOKENS, SAFETY); each chunk carries `usageMetadata`, the prompt counts from the first, the full counts on
 * the last (`promptTokenCount` includes `cachedContentTokenCount`, `candidatesTokenCount` excludes
 * `thoughtsTokenCount`; zero counts are left out, as proto3 JSON does). Without `alt=sse` the stream is a JSON
 * array; `:generateContent` answers one response. Errors: `{"error":{"code","message","status"}}`.
 */
export class RecordingGeminiUpstream extends RecordingUpstream {
  declare protected readonly options: RecordingGeminiOptions;

  static start(options: RecordingGeminiOptions = {}): Promise<RecordingGeminiUpstream> {
    const server = createServer();
    return RecordingUpstream.listen(new RecordingGeminiUpstream(server, options), server);
  }

  get baseUrl(): string {
    return this.origin;
  }

  protected check(script: AnswerScript): void {
    checkScript(script, 'Gemini');
    if (script.redacted?.length) throw new Error('Gemini script: Gemini has no redacted reasoning');
    for (const call of script.toolCalls ?? []) objectArguments(call, 'Gemini', 'functionCall.args');
  }

  protected route(request: RecordedUpstreamRequest): Route {
    const match = GEMINI_PATH.exec(request.path);
    if (request.method !== 'POST' || !match) {
      return { kind: 'error', error: { status: 404, message: `Not found: ${request.path}` } };
    }
    if (!request.body || typeof request.body !== 'object') {
      return {
        kind: 'error',
        error: { status: 400, message: 'Invalid JSON payload received.' },
      };
    }
    const model = (match[2] ?? '').replace(/^models\//, '');
    if (match[3] === 'generateContent') return { kind: 'json', model };
    const alt = new URL(request.url, 'http://upstream').searchParams.get('alt');
    return { kind: alt === 'sse' ? 'sse' : 'json-array', model };
  }

  /** The model of a recorded request's path (`/v1beta/models/<model>:...`). */
  static modelOf(request: RecordedUpstreamRequest): string | undefined {
    return GEMINI_PATH.exec(request.path)?.[2]?.replace(/^models\//, '');
  }

  protected renderStream(script: AnswerScript, request: RecordedUpstreamRequest, model: string): Rendered {
    const sse = new URL(request.url, 'http://upstream').searchParams.get('alt') === 'sse';
    const eol = this.options.lineEnding ?? '\r\n';
    const responseId = `rec${this.nextId()}`;
    const prompt = geminiPromptUsage(script.usage);
    const chunks: Record<string, unknown>[] = [];
    const candidate = (parts: unknown[]): Record<string, unknown> => ({
      content: { parts, role: 'model' },
      index: 0,
    });
    for (const thought of script.reasoning ?? []) {
      const pieces = piecesOf(thought.text, 2);
      pieces.forEach((text, i) => {
        const signed = i === pieces.length - 1 && thought.signature !== undefined;
        chunks.push(
          candidate([{ text, thought: true, ...(signed ? { thoughtSignature: thought.signature } : {}) }]),
        );
      });
    }
    for (const text of piecesOf(script.text, 3)) chunks.push(candidate([{ text }]));
    const calls = this.functionCallParts(script);
    if (calls.length) chunks.push(candidate(calls));
    const finishReason = script.nativeFinish ?? GEMINI_FINISH[script.finish];
    const wrap = (c: Record<string, unknown>, usageMetadata: unknown): unknown => ({
      candidates: [c],
      usageMetadata,
      modelVersion: model,
      responseId,
    });
    const write = (response: unknown, first: boolean): string =>
      sse
        ? `data: ${JSON.stringify(response)}${eol}${eol}`
        : `${first ? '' : `,${eol}`}${JSON.stringify(response, null, 2)}`;
    // The finish rides on the last content chunk, with the full usage; after filtered content, or when there is
    // no content at all, it is a chunk of its own. A stream that does not finish sends that last chunk as it is.
    const lastChunk = chunks.pop();
    const ownChunk = finishReason === 'SAFETY' || !lastChunk;
    const content = chunks.map((c, i) => write(wrap(c, prompt), i === 0));
    const unfinished = lastChunk ? [write(wrap(lastChunk, prompt), chunks.length === 0)] : [];
    if (ownChunk) content.push(...unfinished);
    const finished: Record<string, unknown> = ownChunk
      ? {
          ...(finishReason === 'SAFETY' ? {} : { content: { parts: [{ text: '' }], role: 'model' } }),
          finishReason,
          index: 0,
          ...(finishReason === 'SAFETY'
            ? {
                safetyRatings: [
                  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
                ],
              }
            : {}),
        }
      : { ...lastChunk, finishReason };
    const tail = [write(wrap(finished, geminiUsage(script.usage)), content.length === 0)];
    const cut = ownChunk ? [] : unfinished;
    const error = (e: NonNullable<AnswerScript['streamError']>): string[] => {
      const status = e.status ?? 503;
      const body = {
        error: { code: status, message: e.message, status: e.type ?? GEMINI_STATUS[status] ?? 'UNKNOWN' },
      };
      return [...cut, write(body, content.length + cut.length === 0)];
    };
    return sse
      ? { contentType: 'text/event-stream', content, tail, error, cut }
      : { contentType: 'application/json; charset=UTF-8', content, tail, error, cut, open: '[', close: ']' };
  }

  protected renderJson(script: AnswerScript, _request: RecordedUpstreamRequest, model: string): unknown {
    const parts: unknown[] = (script.reasoning ?? []).map((r) => ({
      text: joined(r.text),
      thought: true,
      ...(r.signature !== undefined ? { thoughtSignature: r.signature } : {}),
    }));
    if (joined(script.text)) parts.push({ text: joined(script.text) });
    parts.push(...this.functionCallParts(script));
    const finishReason = script.nativeFinish ?? GEMINI_FINISH[script.finish];
    return {
      candidates: [
        {
          ...(finishReason === 'SAFETY' ? {} : { content: { parts, role: 'model' } }),
          finishReason,
          index: 0,
        },
      ],
      usageMetadata: geminiUsage(script.usage),
      modelVersion: model,
      responseId: `rec${this.nextId()}`,
    };
  }

  private functionCallParts(script: AnswerScript): unknown[] {
    return (script.toolCalls ?? []).map((call) => ({
      functionCall: {
        name: call.name,
        args: objectArguments(call, 'Gemini', 'functionCall.args'),
        ...(this.options.functionCallIds ? { id: call.id } : {}),
      },
      ...(call.signature !== undefined ? { thoughtSignature: call.signature } : {}),
    }));
  }

  protected errorReply(error: ErrorScript): { headers: Record<string, string>; body: unknown } {
    const status = error.type ?? GEMINI_STATUS[error.status] ?? 'UNKNOWN';
    return {
      headers: {},
      body: {
        error: {
          code: error.status,
          message: error.message,
          status,
          ...(error.details ? { details: error.details } : {}),
        },
      },
    };
  }

  protected streamErrorAsHttp(error: NonNullable<AnswerScript['streamError']>): ErrorScript {
    return { status: error.status ?? 503, message: error.message, type: error.type };
  }
}

/** Proto3 JSON leaves zero counts out. */
function counts(entries: Record<string, number>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== 0));
}

function geminiPromptUsage(usage: AnswerScript['usage']): unknown {
  return {
    ...counts({
      promptTokenCount: usage.input,
      cachedContentTokenCount: usage.cachedInput,
      totalTokenCount: usage.input,
    }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
  };
}

function geminiUsage(usage: AnswerScript['usage']): unknown {
  return {
    ...counts({
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output - usage.reasoning,
      cachedContentTokenCount: usage.cachedInput,
      totalTokenCount: usage.input + usage.output,
      thoughtsTokenCount: usage.reasoning,
    }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
    ...(usage.cachedInput
      ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: usage.cachedInput }] }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** A call's arguments parsed, for a provider that sends them as an object ('' is the empty object). */
function objectArguments(
  call: { name: string; arguments: string | string[] },
  provider: string,
  field: string,
): object {
  const text = joined(call.arguments);
  let args: unknown;
  try {
    args = text ? JSON.parse(text) : {};
  } catch {
    args = undefined;
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error(`${provider} script: the arguments of ${call.name} must be a JSON object (${field})`);
  }
  return args;
}

/** One SSE frame with a data line. */
function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** One named SSE event, as Anthropic writes them. */
function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A pause that does not keep the process alive; 0 waits for the next turn of the event loop. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms).unref() : setImmediate(resolve)));
}
