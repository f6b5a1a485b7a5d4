/*
 * Independent readers of the three upstream request formats, written from the providers' API references and the
 * official SDKs' request types (openai 7.x ChatCompletionCreateParams, @anthropic-ai/sdk 1.x MessageCreateParams
 * with the 2023-06-01 sampling fields, @google/genai 3.x's REST body), never from the service's adapters. Each
 * turns a recorded upstream request body into one neutral WireRequest a test compares with what its client asked.
 *
 * What a reader does with each field:
 * - a field it maps goes into the neutral form, its type (and documented range) checked;
 * - a field of the provider's format the neutral form has no place for goes into `extras`, keyed by its path
 *   (`seed`, `messages[1].name`, `tools[0].cache_control`), so a test comparing the whole form sees it;
 * - anything else throws a WireFormatError: an unknown field, a wrong type, content the neutral form cannot hold
 *   (audio, documents, server tools), or a rule the provider enforces with a 400 (a tool result that answers no
 *   call, thinking with a forced tool choice, ...).
 *
 * Normalisations, the same in the three readers, so that one expectation fits all: system and developer
 * instructions are collected in `system`, wherever they stand; consecutive turns of one role are merged into one;
 * tool results are turns of role `tool` (an Anthropic or Gemini user message that carries results becomes a
 * `tool` turn, then a `user` turn for its other content).
 */

export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
}

export type WireImage =
  | { kind: 'url'; url: string; mediaType?: string; detail?: string }
  | { kind: 'bytes'; mediaType: string; base64: string; detail?: string };

export interface WireToolCall {
  id?: string;
  name: string;
  /** The arguments parsed (OpenAI's JSON text when it parses; the text itself when it does not). */
  args: unknown;
  /** Gemini: the call part's thoughtSignature. */
  signature?: string;
}

export interface WireToolResult {
  id?: string;
  name?: string;
  content: string;
  isError?: boolean;
}

/** A reasoning block sent back: text with its signature (Anthropic thinking, Gemini thought), or redacted data. */
export type WireThinking = { text: string; signature?: string } | { redacted: string };

export interface WireTurn {
  role: 'user' | 'assistant' | 'tool';
  texts: string[];
  images: WireImage[];
  toolCalls: WireToolCall[];
  toolResults: WireToolResult[];
  thinking: WireThinking[];
}

export interface WireTool {
  name: string;
  description?: string;
  parameters?: unknown;
  strict?: boolean;
}

export type WireToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface WireResponseFormat {
  type: 'text' | 'json_object' | 'json_schema';
  schema?: unknown;
  name?: string;
  description?: string;
  strict?: boolean;
}

export interface WireReasoning {
  /** OpenAI reasoning_effort, Anthropic output_config.effort, Gemini thinkingLevel (lower-cased). */
  effort?: string;
  /** Anthropic budget_tokens, Gemini thinkingBudget. */
  budgetTokens?: number;
  /** Anthropic thinking enabled/adaptive (true) or disabled (false). */
  enabled?: boolean;
  /** Anthropic thinking type adaptive. */
  adaptive?: boolean;
  /** Anthropic thinking display (summarized/omitted). */
  display?: string;
  /** Gemini includeThoughts. */
  includeThoughts?: boolean;
}

export interface WireRequest {
  /** From the body (OpenAI, Anthropic); Gemini names the model in the path (RecordingGeminiUpstream.modelOf). */
  model?: string;
  system: string[];
  turns: WireTurn[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  /** OpenAI-compatible extensions (readOpenAiChatRequest with `extensions: true`). */
  minP?: number;
  topA?: number;
  repetitionPenalty?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stop: string[];
  tools: WireTool[];
  toolChoice?: WireToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: WireResponseFormat;
  reasoning?: WireReasoning;
  /** OpenAI, Anthropic: the body's `stream`. */
  stream?: boolean;
  /** OpenAI: stream_options.include_usage. */
  includeUsage?: boolean;
  /** Fields of the provider's format the neutral form has no place for, by path. */
  extras: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// The walk: typed access to a JSON body that fails with the path of what is wrong.

type Json = Record<string, unknown>;

class Walk {
  readonly extras: Record<string, unknown> = {};

  constructor(private readonly format: string) {}

  fail(path: string, message: string): never {
    throw new WireFormatError(`${this.format}: ${path || 'the body'} ${message}`);
  }

  /**
   * The object at `path`, its keys checked: `mapped` ones are the caller's to read, `extras` ones are recorded
   * in `extras`, any other key throws.
   */
  object(value: unknown, path: string, mapped: readonly string[], extras: readonly string[] = []): Json {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      this.fail(path, `must be an object`);
    const object = value as Json;
    for (const key of Object.keys(object)) {
      if (mapped.includes(key)) continue;
      if (extras.includes(key)) this.extras[at(path, key)] = object[key];
      else this.fail(at(path, key), `is not a field of this request format`);
    }
    return object;
  }

  /** An object of any keys (a JSON schema, tool arguments, a function response). */
  record(value: unknown, path: string): Json {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      this.fail(path, `must be an object`);
    return value as Json;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, `must be a string`);
    return value;
  }

  number(value: unknown, path: string, min = -Infinity, max = Infinity): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'must be a number');
    if (value < min || value > max) this.fail(path, `must be within [${min}, ${max}], got ${value}`);
    return value;
  }

  integer(value: unknown, path: string, min = -Infinity): number {
    if (!Number.isSafeInteger(value)) this.fail(path, 'must be an integer');
    if ((value as number) < min) this.fail(path, `must be at least ${min}, got ${String(value)}`);
    return value as number;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean') this.fail(path, 'must be a boolean');
    return value;
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.fail(path, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    }
    return value as T;
  }

  /** `read(value)` unless the value is absent (undefined, or null where the format allows null). */
  optional<T>(value: unknown, nullable: boolean, read: (value: unknown) => T): T | undefined {
    if (value === undefined || (nullable && value === null)) return undefined;
    return read(value);
  }
}

function at(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

function emptyTurn(role: WireTurn['role']): WireTurn {
  return { role, texts: [], images: [], toolCalls: [], toolResults: [], thinking: [] };
}

/** Appends the turn, merged into the previous one when both have the same role; an empty turn is left out. */
function pushTurn(turns: WireTurn[], turn: WireTurn): void {
  const { texts, images, toolCalls, toolResults, thinking } = turn;
  if (![texts, images, toolCalls, toolResults, thinking].some((list) => list.length > 0)) return;
  const last = turns[turns.length - 1];
  if (last && last.role === turn.role) {
    last.texts.push(...turn.texts);
    last.images.push(...turn.images);
    last.toolCalls.push(...turn.toolCalls);
    last.toolResults.push(...turn.toolResults);
    last.thinking.push(...turn.thinking);
  } else {
    turns.push(turn);
  }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Drops the keys whose value is undefined, so that a test's toEqual compares what is there. */
function defined<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

// ---------------------------------------------------------------------------------------------------------------
// OpenAI chat completions

export interface OpenAiReadOptions {
  /**
   * Accept the OpenAI-compatible extensions the canonical request has (top_k, min_p, top_a, repetition_penalty at
   * the top level, reasoning_content on assistant messages). Off by default: OpenAI's own format has none of them.
   */
  extensions?: boolean;
}

const OPENAI_TOP_MAPPED = [
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'stream',
  'stream_options',
] as const;
const OPENAI_TOP_EXTRAS = [
  'audio',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'metadata',
  'modalities',
  'moderation',
  'n',
  'prediction',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'safety_identifier',
  'seed',
  'service_tier',
  'store',
  'top_logprobs',
  'user',
  'verbosity',
  'web_search_options',
] as const;
const OPENAI_EXTENSIONS = ['top_k', 'min_p', 'top_a', 'repetition_penalty'] as const;

/** Reads an OpenAI `POST /chat/completions` body (ChatCompletionCreateParams). */
export function readOpenAiChatRequest(body: unknown, options: OpenAiReadOptions = {}): WireRequest {
  const w = new Walk('OpenAI chat completions request');
  const o = w.object(
    body,
    '',
    [...OPENAI_TOP_MAPPED, ...(options.extensions ? OPENAI_EXTENSIONS : [])],
    OPENAI_TOP_EXTRAS,
  );
  const opt = <T>(key: string, read: (v: unknown) => T): T | undefined => w.optional(o[key], true, read);

  if (o.max_tokens != null && o.max_completion_tokens != null) {
    w.fail('max_tokens', 'and max_completion_tokens cannot both be set');
  }
  const stream = opt('stream', (v) => w.boolean(v, 'stream'));
  if (o.stream_options != null && stream !== true)
    w.fail('stream_options', 'is only allowed when stream is true');
  const streamOptions = opt('stream_options', (v) =>
    w.object(v, 'stream_options', ['include_usage'], ['include_obfuscation']),
  );
  const stop = opt('stop', (v) =>
    typeof v === 'string' ? [v] : w.array(v, 'stop').map((s, i) => w.string(s, `stop[${i}]`)),
  );
  if (stop && stop.length > 4) w.fail('stop', 'takes at most 4 sequences');

  const { system, turns } = readOpenAiMessages(w, o.messages, options);
  const request: WireRequest = {
    model: w.string(o.model, 'model'),
    system,
    turns,
    maxTokens:
      opt('max_tokens', (v) => w.integer(v, 'max_tokens', 1)) ??
      opt('max_completion_tokens', (v) => w.integer(v, 'max_completion_tokens', 1)),
    temperature: opt('temperature', (v) => w.number(v, 'temperature', 0, 2)),
    topP: opt('top_p', (v) => w.number(v, 'top_p', 0, 1)),
    topK: opt('top_k', (v) => w.integer(v, 'top_k', 0)),
    minP: opt('min_p', (v) => w.number(v, 'min_p', 0, 1)),
    topA: opt('top_a', (v) => w.number(v, 'top_a', 0, 1)),
    repetitionPenalty: opt('repetition_penalty', (v) => w.number(v, 'repetition_penalty', 0)),
    presencePenalty: opt('presence_penalty', (v) => w.number(v, 'presence_penalty', -2, 2)),
    frequencyPenalty: opt('frequency_penalty', (v) => w.number(v, 'frequency_penalty', -2, 2)),
    stop: stop ?? [],
    tools: (opt('tools', (v) => w.array(v, 'tools')) ?? []).map((tool, i) =>
      readOpenAiTool(w, tool, `tools[${i}]`),
    ),
    toolChoice: opt('tool_choice', (v) => readOpenAiToolChoice(w, v)),
    parallelToolCalls: opt('parallel_tool_calls', (v) => w.boolean(v, 'parallel_tool_calls')),
    responseFormat: opt('response_format', (v) => readOpenAiResponseFormat(w, v)),
    reasoning: opt('reasoning_effort', (v) => ({
      effort: w.oneOf(v, 'reasoning_effort', ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']),
    })),
    stream,
    includeUsage:
      streamOptions &&
      w.optional(streamOptions.include_usage, false, (v) => w.boolean(v, 'stream_options.include_usage')),
    extras: w.extras,
  };
  return defined(request);
}

function readOpenAiMessages(
  w: Walk,
  value: unknown,
  options: OpenAiReadOptions,
): { system: string[]; turns: WireTurn[] } {
  const messages = w.array(value, 'messages');
  if (messages.length === 0) w.fail('messages', 'must not be empty');
  const system: string[] = [];
  const turns: WireTurn[] = [];
  /** The calls of the last assistant message that tool messages have not answered yet. */
  let open = new Set<string>();
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    const role = w.oneOf((message as Json | null)?.role, `${path}.role`, [
      'system',
      'developer',
      'user',
      'assistant',
      'tool',
      'function',
    ]);
    if (role !== 'tool' && open.size > 0) {
      w.fail(
        path,
        `follows an assistant message whose tool calls ${[...open].join(', ')} have no tool message`,
      );
    }
    switch (role) {
      case 'system':
      case 'developer': {
        const m = w.object(message, path, ['role', 'content'], ['name']);
        system.push(...openAiTexts(w, m.content, `${path}.content`));
        break;
      }
      case 'user': {
        const m = w.object(message, path, ['role', 'content'], ['name']);
        const turn = emptyTurn('user');
        if (typeof m.content === 'string') turn.texts.push(m.content);
        else {
          w.array(m.content, `${path}.content`).forEach((part, j) =>
            readOpenAiUserPart(w, part, `${path}.content[${j}]`, turn),
          );
        }
        pushTurn(turns, turn);
        break;
      }
      case 'assistant': {
        const mapped = [
          'role',
          'content',
          'tool_calls',
          ...(options.extensions ? ['reasoning_content'] : []),
        ];
        const m = w.object(message, path, mapped, ['name', 'refusal', 'audio', 'function_call']);
        const turn = emptyTurn('assistant');
        if (typeof m.content === 'string') turn.texts.push(m.content);
        else if (m.content != null) {
          w.array(m.content, `${path}.content`).forEach((part, j) => {
            const p = `${path}.content[${j}]`;
            const type = w.oneOf((part as Json | null)?.type, `${p}.type`, ['text', 'refusal']);
            if (type === 'text')
              turn.texts.push(w.string(w.object(part, p, ['type', 'text']).text, `${p}.text`));
            else w.extras[p] = part;
          });
        }
        if (m.reasoning_content != null)
          turn.thinking.push({ text: w.string(m.reasoning_content, `${path}.reasoning_content`) });
        const calls = w.optional(m.tool_calls, false, (v) => w.array(v, `${path}.tool_calls`)) ?? [];
        calls.forEach((call, j) => {
          const p = `${path}.tool_calls[${j}]`;
          const c = w.object(call, p, ['id', 'type', 'function']);
          w.oneOf(c.type, `${p}.type`, ['function']);
          const f = w.object(c.function, `${p}.function`, ['name', 'arguments']);
          const id = w.string(c.id, `${p}.id`);
          if (open.has(id)) w.fail(`${p}.id`, `repeats the call id ${id}`);
          open.add(id);
          turn.toolCalls.push({
            id,
            name: w.string(f.name, `${p}.function.name`),
            args: parseArguments(w.string(f.arguments, `${p}.function.arguments`)),
          });
        });
        if (m.content == null && calls.length === 0 && m.function_call == null) {
          w.fail(`${path}.content`, 'is required unless tool_calls or function_call is set');
        }
        pushTurn(turns, turn);
        break;
      }
      case 'tool': {
        const m = w.object(message, path, ['role', 'content', 'tool_call_id']);
        const id = w.string(m.tool_call_id, `${path}.tool_call_id`);
        if (!open.delete(id))
          w.fail(`${path}.tool_call_id`, `answers no call of the preceding assistant message (${id})`);
        const turn = emptyTurn('tool');
        turn.toolResults.push({ id, content: openAiTexts(w, m.content, `${path}.content`).join('') });
        pushTurn(turns, turn);
        break;
      }
      case 'function':
        return w.fail(path, 'is a deprecated function message, which the neutral form does not hold');
    }
    if (role !== 'tool' && role !== 'assistant') open = new Set();
  });
  return { system, turns };
}

/** A content that is a string or text parts. */
function openAiTexts(w: Walk, content: unknown, path: string): string[] {
  if (typeof content === 'string') return [content];
  return w.array(content, path).map((part, i) => {
    const p = `${path}[${i}]`;
    const o = w.object(part, p, ['type', 'text'], ['prompt_cache_breakpoint']);
    w.oneOf(o.type, `${p}.type`, ['text']);
    return w.string(o.text, `${p}.text`);
  });
}

function readOpenAiUserPart(w: Walk, part: unknown, path: string, turn: WireTurn): void {
  const type = w.oneOf((part as Json | null)?.type, `${path}.type`, [
    'text',
    'image_url',
    'input_audio',
    'file',
  ]);
  if (type === 'text') {
    const o = w.object(part, path, ['type', 'text'], ['prompt_cache_breakpoint']);
    turn.texts.push(w.string(o.text, `${path}.text`));
  } else if (type === 'image_url') {
    const o = w.object(part, path, ['type', 'image_url'], ['prompt_cache_breakpoint']);
    const image = w.object(o.image_url, `${path}.image_url`, ['url', 'detail']);
    const url = w.string(image.url, `${path}.image_url.url`);
    const detail = w.optional(image.detail, false, (v) =>
      w.oneOf(v, `${path}.image_url.detail`, ['auto', 'low', 'high', 'original']),
    );
    const data = DATA_URL.exec(url);
    if (url.startsWith('data:') && !data) w.fail(`${path}.image_url.url`, 'is a data URL that is not base64');
    turn.images.push(
      defined<WireImage>(
        data
          ? { kind: 'bytes', mediaType: data[1]!, base64: data[2]!, detail }
          : { kind: 'url', url, detail },
      ),
    );
  } else {
    w.fail(path, `is an ${type} part, which the neutral form does not hold`);
  }
}

function readOpenAiTool(w: Walk, value: unknown, path: string): WireTool {
  const type = w.oneOf((value as Json | null)?.type, `${path}.type`, ['function', 'custom']);
  if (type === 'custom') w.fail(path, 'is a custom tool, which the neutral form does not hold');
  const tool = w.object(value, path, ['type', 'function']);
  const f = w.object(tool.function, `${path}.function`, ['name', 'description', 'parameters', 'strict']);
  return defined({
    name: w.string(f.name, `${path}.function.name`),
    description: w.optional(f.description, false, (v) => w.string(v, `${path}.function.description`)),
    parameters: w.optional(f.parameters, false, (v) => w.record(v, `${path}.function.parameters`)),
    strict: w.optional(f.strict, true, (v) => w.boolean(v, `${path}.function.strict`)),
  });
}

function readOpenAiToolChoice(w: Walk, value: unknown): WireToolChoice | undefined {
  if (typeof value === 'string') return w.oneOf(value, 'tool_choice', ['auto', 'none', 'required'] as const);
  const type = w.oneOf((value as Json | null)?.type, 'tool_choice.type', [
    'function',
    'allowed_tools',
    'custom',
  ]);
  if (type !== 'function') {
    w.extras['tool_choice'] = value;
    return undefined;
  }
  const choice = w.object(value, 'tool_choice', ['type', 'function']);
  return {
    name: w.string(
      w.object(choice.function, 'tool_choice.function', ['name']).name,
      'tool_choice.function.name',
    ),
  };
}

function readOpenAiResponseFormat(w: Walk, value: unknown): WireResponseFormat {
  const type = w.oneOf((value as Json | null)?.type, 'response_format.type', [
    'text',
    'json_object',
    'json_schema',
  ]);
  if (type !== 'json_schema') {
    w.object(value, 'response_format', ['type']);
    return { type };
  }
  const o = w.object(value, 'response_format', ['type', 'json_schema']);
  const s = w.object(o.json_schema, 'response_format.json_schema', [
    'name',
    'description',
    'schema',
    'strict',
  ]);
  return defined({
    type,
    name: w.string(s.name, 'response_format.json_schema.name'),
    description: w.optional(s.description, false, (v) =>
      w.string(v, 'response_format.json_schema.description'),
    ),
    schema: w.optional(s.schema, false, (v) => w.record(v, 'response_format.json_schema.schema')),
    strict: w.optional(s.strict, true, (v) => w.boolean(v, 'response_format.json_schema.strict')),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Anthropic messages

export interface AnthropicReadOptions {
  /**
   * The `anthropic-version` the request was sent with (default 2023-06-01, what the service sends). Under
   * 2026-10-21 temperature, top_p and top_k are not part of the format, nor are citations on user text blocks.
   */
  version?: string;
}

const ANTHROPIC_VERSIONS = ['2023-06-01', '2026-10-21'] as const;

/** Reads an Anthropic `POST /v1/messages` body (MessageCreateParams). */
export function readAnthropicMessagesRequest(body: unknown, options: AnthropicReadOptions = {}): WireRequest {
  const version = options.version ?? '2023-06-01';
  if (!(ANTHROPIC_VERSIONS as readonly string[]).includes(version)) {
    throw new WireFormatError(`Anthropic messages request: unknown anthropic-version ${version}`);
  }
  const sampling = version === '2023-06-01' ? ['temperature', 'top_p', 'top_k'] : [];
  const w = new Walk(`Anthropic messages request (${version})`);
  const o = w.object(
    body,
    '',
    [
      'model',
      'messages',
      'max_tokens',
      'system',
      'stop_sequences',
      'stream',
      'tools',
      'tool_choice',
      'thinking',
      'output_config',
      ...sampling,
    ],
    ['cache_control', 'container', 'diagnostics', 'inference_geo', 'metadata', 'service_tier', 'speed'],
  );
  const opt = <T>(key: string, read: (v: unknown) => T, nullable = false): T | undefined =>
    w.optional(o[key], nullable, read);

  const system = opt('system', (v) => anthropicSystem(w, v, 'system')) ?? [];
  const { turns, systemInMessages } = readAnthropicMessages(w, o.messages, version);
  const reasoning: WireReasoning = {};
  const thinking = opt('thinking', (v) => {
    const type = w.oneOf((v as Json | null)?.type, 'thinking.type', [
      'enabled',
      'disabled',
      'adaptive',
      'between_tools',
    ]);
    if (type === 'enabled') {
      const t = w.object(v, 'thinking', ['type', 'budget_tokens', 'display']);
      reasoning.enabled = true;
      reasoning.budgetTokens = w.integer(t.budget_tokens, 'thinking.budget_tokens', 1024);
      reasoning.display = w.optional(t.display, true, (d) =>
        w.oneOf(d, 'thinking.display', ['summarized', 'omitted']),
      );
    } else if (type === 'adaptive') {
      const t = w.object(v, 'thinking', ['type', 'display']);
      reasoning.enabled = true;
      reasoning.adaptive = true;
      reasoning.display = w.optional(t.display, true, (d) =>
        w.oneOf(d, 'thinking.display', ['summarized', 'omitted']),
      );
    } else if (type === 'disabled') {
      w.object(v, 'thinking', ['type']);
      reasoning.enabled = false;
    } else {
      w.object(v, 'thinking', ['type']);
      w.extras['thinking'] = v;
    }
    return type;
  });
  let responseFormat: WireResponseFormat | undefined;
  opt('output_config', (v) => {
    const c = w.object(v, 'output_config', ['effort', 'format']);
    reasoning.effort = w.optional(c.effort, true, (e) =>
      w.oneOf(e, 'output_config.effort', ['low', 'medium', 'high', 'xhigh', 'max']),
    );
    responseFormat = w.optional(c.format, true, (f) => {
      const format = w.object(f, 'output_config.format', ['type', 'schema']);
      w.oneOf(format.type, 'output_config.format.type', ['json_schema']);
      return { type: 'json_schema' as const, schema: w.record(format.schema, 'output_config.format.schema') };
    });
  });

  let parallelToolCalls: boolean | undefined;
  const toolChoice = opt('tool_choice', (v) => {
    const type = w.oneOf((v as Json | null)?.type, 'tool_choice.type', ['auto', 'any', 'tool', 'none']);
    const c = w.object(
      v,
      'tool_choice',
      type === 'none'
        ? ['type']
        : type === 'tool'
          ? ['type', 'name', 'disable_parallel_tool_use']
          : ['type', 'disable_parallel_tool_use'],
    );
    const disable = w.optional(c.disable_parallel_tool_use, false, (d) =>
      w.boolean(d, 'tool_choice.disable_parallel_tool_use'),
    );
    if (disable !== undefined) parallelToolCalls = !disable;
    const choice: WireToolChoice =
      type === 'auto'
        ? 'auto'
        : type === 'none'
          ? 'none'
          : type === 'any'
            ? 'required'
            : { name: w.string(c.name, 'tool_choice.name') };
    return choice;
  });

  const temperature = opt('temperature', (v) => w.number(v, 'temperature', 0, 1));
  const topP = opt('top_p', (v) => w.number(v, 'top_p', 0, 1));
  const topK = opt('top_k', (v) => w.integer(v, 'top_k', 0));
  if (thinking === 'enabled' || thinking === 'adaptive') {
    // Extended thinking: "not compatible with temperature or top_k modifications as well as forced tool use";
    // top_p may be set between 0.95 and 1.
    if (temperature !== undefined && temperature !== 1)
      w.fail('temperature', 'must be 1 (or unset) with thinking');
    if (topK !== undefined) w.fail('top_k', 'is not allowed with thinking');
    if (topP !== undefined && topP < 0.95) w.fail('top_p', 'must be within [0.95, 1] with thinking');
    if (toolChoice === 'required' || typeof toolChoice === 'object') {
      w.fail('tool_choice', 'cannot force tool use with thinking');
    }
  }

  const request: WireRequest = {
    model: w.string(o.model, 'model'),
    system: [...system, ...systemInMessages],
    turns,
    maxTokens: w.integer(o.max_tokens, 'max_tokens', 0),
    temperature,
    topP,
    topK,
    stop:
      opt('stop_sequences', (v) =>
        w.array(v, 'stop_sequences').map((s, i) => w.string(s, `stop_sequences[${i}]`)),
      ) ?? [],
    tools: (opt('tools', (v) => w.array(v, 'tools')) ?? []).map((tool, i) =>
      readAnthropicTool(w, tool, `tools[${i}]`),
    ),
    toolChoice,
    parallelToolCalls,
    responseFormat,
    reasoning: Object.keys(defined(reasoning)).length ? defined(reasoning) : undefined,
    stream: opt('stream', (v) => w.boolean(v, 'stream')),
    extras: w.extras,
  };
  return defined(request);
}

function anthropicSystem(w: Walk, value: unknown, path: string): string[] {
  if (typeof value === 'string') return [value];
  return w.array(value, path).map((block, i) => {
    const p = `${path}[${i}]`;
    const b = w.object(block, p, ['type', 'text'], ['cache_control', 'citations']);
    w.oneOf(b.type, `${p}.type`, ['text']);
    return w.string(b.text, `${p}.text`);
  });
}

function readAnthropicMessages(
  w: Walk,
  value: unknown,
  version: string,
): { turns: WireTurn[]; systemInMessages: string[] } {
  const messages = w.array(value, 'messages');
  if (messages.length === 0) w.fail('messages', 'must not be empty');
  const turns: WireTurn[] = [];
  const systemInMessages: string[] = [];
  /** The tool_use ids of the last assistant message, which the next user message must answer. */
  let open = new Set<string>();
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    const m = w.object(message, path, ['role', 'content']);
    const role = w.oneOf(m.role, `${path}.role`, ['user', 'assistant', 'system']);
    if (role === 'system') {
      systemInMessages.push(...anthropicSystem(w, m.content, `${path}.content`));
      return;
    }
    const blocks: unknown[] =
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : w.array(m.content, `${path}.content`);
    let turn = emptyTurn(role);
    const answered = new Set<string>();
    blocks.forEach((block, j) => {
      const p = typeof m.content === 'string' ? `${path}.content` : `${path}.content[${j}]`;
      const type = (block as Json | null)?.type;
      if (role === 'user' && type === 'tool_result') {
        if (turn.role !== 'tool') {
          if (turn.texts.length || turn.images.length)
            w.fail(p, 'must come before the other blocks of the message');
          turn = emptyTurn('tool');
        }
        const b = w.object(
          block,
          p,
          ['type', 'tool_use_id', 'content', 'is_error'],
          ['cache_control', 'toolset_name'],
        );
        const id = w.string(b.tool_use_id, `${p}.tool_use_id`);
        if (!open.has(id))
          w.fail(`${p}.tool_use_id`, `answers no tool_use of the preceding assistant message (${id})`);
        answered.add(id);
        const content = w.optional(b.content, false, (c) =>
          typeof c === 'string'
            ? c
            : w
                .array(c, `${p}.content`)
                .map((inner, k) => {
                  const q = `${p}.content[${k}]`;
                  if ((inner as Json | null)?.type !== 'text')
                    w.fail(q, 'is not a text block, which the neutral form does not hold in a tool result');
                  return w.string(
                    w.object(inner, q, ['type', 'text'], ['cache_control', 'citations']).text,
                    `${q}.text`,
                  );
                })
                .join(''),
        );
        turn.toolResults.push(
          defined({
            id,
            content: content ?? '',
            isError: w.optional(b.is_error, false, (e) => w.boolean(e, `${p}.is_error`)),
          }),
        );
        return;
      }
      if (turn.role === 'tool') {
        pushTurn(turns, turn);
        turn = emptyTurn('user');
      }
      readAnthropicBlock(w, block, p, role, turn, version);
    });
    if (role === 'user') {
      const missing = [...open].filter((id) => !answered.has(id));
      if (missing.length)
        w.fail(path, `does not answer the tool_use ids ${missing.join(', ')} of the message before`);
      open = new Set();
    } else {
      open = new Set(turn.toolCalls.map((c) => c.id!));
    }
    pushTurn(turns, turn);
  });
  return { turns, systemInMessages };
}

function readAnthropicBlock(
  w: Walk,
  block: unknown,
  path: string,
  role: 'user' | 'assistant',
  turn: WireTurn,
  version: string,
): void {
  const type = w.string((block as Json | null)?.type, `${path}.type`);
  switch (type) {
    case 'text': {
      const citations = role === 'assistant' || version === '2023-06-01' ? ['citations'] : [];
      const b = w.object(block, path, ['type', 'text'], ['cache_control', ...citations]);
      turn.texts.push(w.string(b.text, `${path}.text`));
      return;
    }
    case 'image': {
      const b = w.object(block, path, ['type', 'source'], ['cache_control', 'transformations']);
      const sourceType = w.oneOf((b.source as Json | null)?.type, `${path}.source.type`, [
        'base64',
        'url',
        'file',
      ]);
      if (sourceType === 'base64') {
        const s = w.object(b.source, `${path}.source`, ['type', 'media_type', 'data']);
        turn.images.push({
          kind: 'bytes',
          mediaType: w.oneOf(s.media_type, `${path}.source.media_type`, [
            'image/jpeg',
            'image/png',
            'image/gif',
            'image/webp',
          ]),
          base64: w.string(s.data, `${path}.source.data`),
        });
      } else if (sourceType === 'url') {
        const s = w.object(b.source, `${path}.source`, ['type', 'url']);
        turn.images.push({ kind: 'url', url: w.string(s.url, `${path}.source.url`) });
      } else {
        w.fail(`${path}.source`, 'is a Files API image, which the neutral form does not hold');
      }
      return;
    }
    case 'thinking':
    case 'redacted_thinking': {
      if (role !== 'assistant') w.fail(path, `is a ${type} block in a user message`);
      if (type === 'thinking') {
        const b = w.object(block, path, ['type', 'thinking', 'signature']);
        turn.thinking.push({
          text: w.string(b.thinking, `${path}.thinking`),
          signature: w.string(b.signature, `${path}.signature`),
        });
      } else {
        const b = w.object(block, path, ['type', 'data']);
        turn.thinking.push({ redacted: w.string(b.data, `${path}.data`) });
      }
      return;
    }
    case 'tool_use': {
      if (role !== 'assistant') w.fail(path, 'is a tool_use block in a user message');
      const b = w.object(
        block,
        path,
        ['type', 'id', 'name', 'input'],
        ['cache_control', 'caller', 'toolset_name'],
      );
      const id = w.string(b.id, `${path}.id`);
      if (turn.toolCalls.some((c) => c.id === id)) w.fail(`${path}.id`, `repeats the tool_use id ${id}`);
      turn.toolCalls.push({
        id,
        name: w.string(b.name, `${path}.name`),
        args: w.record(b.input, `${path}.input`),
      });
      return;
    }
    case 'tool_result':
      return w.fail(path, 'is a tool_result block in an assistant message');
    default:
      return w.fail(path, `is a ${type} block, which the neutral form does not hold`);
  }
}

function readAnthropicTool(w: Walk, value: unknown, path: string): WireTool {
  const type = (value as Json | null)?.type;
  if (type !== undefined && type !== null && type !== 'custom') {
    w.fail(
      path,
      `is a server or Anthropic-defined tool (${String(type)}), which the neutral form does not hold`,
    );
  }
  const t = w.object(
    value,
    path,
    ['type', 'name', 'description', 'input_schema', 'strict'],
    ['cache_control', 'allowed_callers', 'defer_loading', 'eager_input_streaming', 'input_examples'],
  );
  const schema = w.record(t.input_schema, `${path}.input_schema`);
  if (schema.type !== 'object') w.fail(`${path}.input_schema.type`, "must be 'object'");
  return defined({
    name: w.string(t.name, `${path}.name`),
    description: w.optional(t.description, false, (v) => w.string(v, `${path}.description`)),
    parameters: schema,
    strict: w.optional(t.strict, false, (v) => w.boolean(v, `${path}.strict`)),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Google Gemini

/** Reads a Gemini `:generateContent` / `:streamGenerateContent` body (GenerateContentRequest, REST JSON). */
export function readGeminiGenerateRequest(body: unknown): WireRequest {
  const w = new Walk('Gemini generateContent request');
  const o = w.object(
    body,
    '',
    ['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig'],
    ['safetySettings', 'cachedContent', 'serviceTier', 'labels', 'store', 'continuationToken'],
  );
  const system =
    w.optional(o.systemInstruction, false, (v) => {
      const c = w.object(v, 'systemInstruction', ['parts', 'role']);
      return w.array(c.parts, 'systemInstruction.parts').map((part, i) => {
        const p = `systemInstruction.parts[${i}]`;
        return w.string(w.object(part, p, ['text']).text, `${p}.text`);
      });
    }) ?? [];

  const turns: WireTurn[] = [];
  const contents = w.array(o.contents, 'contents');
  contents.forEach((content, i) => readGeminiContent(w, content, `contents[${i}]`, turns));

  const tools: WireTool[] = [];
  w.optional(o.tools, false, (v) =>
    w.array(v, 'tools').forEach((tool, i) => {
      const p = `tools[${i}]`;
      const other = Object.keys((tool as Json | null) ?? {}).filter((k) => k !== 'functionDeclarations');
      if (other.length)
        w.fail(`${p}.${other[0]}`, 'is a built-in tool, which the neutral form does not hold');
      const t = w.object(tool, p, ['functionDeclarations']);
      w.array(t.functionDeclarations, `${p}.functionDeclarations`).forEach((decl, j) =>
        tools.push(readGeminiFunction(w, decl, `${p}.functionDeclarations[${j}]`)),
      );
    }),
  );

  const toolChoice = w.optional(o.toolConfig, false, (v) => {
    const config = w.object(
      v,
      'toolConfig',
      ['functionCallingConfig'],
      ['retrievalConfig', 'includeServerSideToolInvocations'],
    );
    return w.optional(config.functionCallingConfig, false, (f) => readGeminiFunctionCalling(w, f));
  });

  const request: WireRequest = { system, turns, stop: [], tools, toolChoice, extras: w.extras };
  if (o.model !== undefined) request.model = w.string(o.model, 'model');
  w.optional(o.generationConfig, false, (v) => readGeminiGenerationConfig(w, v, request));
  return defined(request);
}

function readGeminiContent(w: Walk, value: unknown, path: string, turns: WireTurn[]): void {
  const c = w.object(value, path, ['role', 'parts']);
  const role = w.optional(c.role, false, (r) => w.oneOf(r, `${path}.role`, ['user', 'model'])) ?? 'user';
  let turn = emptyTurn(role === 'model' ? 'assistant' : 'user');
  w.array(c.parts, `${path}.parts`).forEach((part, i) => {
    const p = `${path}.parts[${i}]`;
    const o = part as Json | null;
    const data = [
      'text',
      'inlineData',
      'fileData',
      'functionCall',
      'functionResponse',
      'executableCode',
      'codeExecutionResult',
      'toolCall',
      'toolResponse',
    ].filter((k) => o?.[k] !== undefined);
    if (data.length !== 1)
      w.fail(p, `must hold exactly one kind of data, holds ${data.length ? data.join(', ') : 'none'}`);
    const kind = data[0]!;
    const extras = ['videoMetadata', 'mediaResolution', 'partMetadata', 'mediaProcessing'];
    if (kind === 'functionResponse') {
      if (role !== 'user') w.fail(p, 'is a functionResponse in a model turn');
      if (turn.role !== 'tool') {
        pushTurn(turns, turn);
        turn = emptyTurn('tool');
      }
      const b = w.object(part, p, ['functionResponse'], extras);
      turn.toolResults.push(readGeminiFunctionResponse(w, b.functionResponse, `${p}.functionResponse`));
      return;
    }
    if (turn.role === 'tool') {
      pushTurn(turns, turn);
      turn = emptyTurn('user');
    }
    switch (kind) {
      case 'text': {
        const b = w.object(part, p, ['text', 'thought', 'thoughtSignature'], extras);
        const text = w.string(b.text, `${p}.text`);
        const thought = w.optional(b.thought, false, (t) => w.boolean(t, `${p}.thought`)) ?? false;
        const signature = w.optional(b.thoughtSignature, false, (s) => w.string(s, `${p}.thoughtSignature`));
        if (thought) turn.thinking.push(defined({ text, signature }));
        else {
          turn.texts.push(text);
          if (signature !== undefined) turn.thinking.push({ text: '', signature });
        }
        return;
      }
      case 'inlineData': {
        const b = w.object(part, p, ['inlineData'], extras);
        const d = w.object(b.inlineData, `${p}.inlineData`, ['mimeType', 'data'], ['displayName']);
        const mediaType = w.string(d.mimeType, `${p}.inlineData.mimeType`);
        if (!mediaType.startsWith('image/'))
          w.fail(`${p}.inlineData`, `is ${mediaType} data, which the neutral form does not hold`);
        turn.images.push({ kind: 'bytes', mediaType, base64: w.string(d.data, `${p}.inlineData.data`) });
        return;
      }
      case 'fileData': {
        const b = w.object(part, p, ['fileData'], extras);
        const f = w.object(b.fileData, `${p}.fileData`, ['fileUri', 'mimeType'], ['displayName']);
        const mediaType = w.optional(f.mimeType, false, (m) => w.string(m, `${p}.fileData.mimeType`));
        if (mediaType !== undefined && !mediaType.startsWith('image/')) {
          w.fail(`${p}.fileData`, `is a ${mediaType} file, which the neutral form does not hold`);
        }
        turn.images.push(
          defined<WireImage>({ kind: 'url', url: w.string(f.fileUri, `${p}.fileData.fileUri`), mediaType }),
        );
        return;
      }
      case 'functionCall': {
        if (role !== 'model') w.fail(p, 'is a functionCall in a user turn');
        const b = w.object(part, p, ['functionCall', 'thoughtSignature'], extras);
        const f = w.object(b.functionCall, `${p}.functionCall`, ['name', 'args', 'id']);
        turn.toolCalls.push(
          defined({
            id: w.optional(f.id, false, (v) => w.string(v, `${p}.functionCall.id`)),
            name: w.string(f.name, `${p}.functionCall.name`),
            args: w.optional(f.args, false, (a) => w.record(a, `${p}.functionCall.args`)) ?? {},
            signature: w.optional(b.thoughtSignature, false, (s) => w.string(s, `${p}.thoughtSignature`)),
          }),
        );
        return;
      }
      default:
        return w.fail(p, `is a ${kind} part, which the neutral form does not hold`);
    }
  });
  pushTurn(turns, turn);
}

/**
 * A function response's content: per the API reference, the `output` key holds the output and the `error` key
 * the error details; a response with neither is the output as a whole. A string output is the content as is,
 * anything else its JSON.
 */
function readGeminiFunctionResponse(w: Walk, value: unknown, path: string): WireToolResult {
  const f = w.object(value, path, ['name', 'response', 'id'], ['willContinue', 'scheduling']);
  const response = w.record(f.response, `${path}.response`);
  const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  const isError = 'error' in response;
  const content = isError
    ? text(response.error)
    : 'output' in response
      ? text(response.output)
      : JSON.stringify(response);
  return defined({
    id: w.optional(f.id, false, (v) => w.string(v, `${path}.id`)),
    name: w.string(f.name, `${path}.name`),
    content,
    isError: isError || undefined,
  });
}

function readGeminiFunction(w: Walk, value: unknown, path: string): WireTool {
  const d = w.object(
    value,
    path,
    ['name', 'description', 'parameters', 'parametersJsonSchema'],
    ['response', 'responseJsonSchema', 'behavior'],
  );
  if (d.parameters !== undefined && d.parametersJsonSchema !== undefined) {
    w.fail(path, 'sets both parameters and parametersJsonSchema');
  }
  const schema = d.parameters ?? d.parametersJsonSchema;
  return defined({
    name: w.string(d.name, `${path}.name`),
    description: w.optional(d.description, false, (v) => w.string(v, `${path}.description`)),
    parameters: w.optional(schema, false, (v) =>
      w.record(v, `${path}.${d.parameters !== undefined ? 'parameters' : 'parametersJsonSchema'}`),
    ),
  });
}

function readGeminiFunctionCalling(w: Walk, value: unknown): WireToolChoice | undefined {
  const path = 'toolConfig.functionCallingConfig';
  const f = w.object(value, path, ['mode', 'allowedFunctionNames']);
  const mode = w.optional(f.mode, false, (m) =>
    w.oneOf(m, `${path}.mode`, ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']),
  );
  const names = w.optional(f.allowedFunctionNames, false, (v) =>
    w
      .array(v, `${path}.allowedFunctionNames`)
      .map((n, i) => w.string(n, `${path}.allowedFunctionNames[${i}]`)),
  );
  if (names && mode !== 'ANY' && mode !== 'VALIDATED')
    w.fail(`${path}.allowedFunctionNames`, 'is only allowed with mode ANY');
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
    case 'AUTO':
      return 'auto';
    case 'NONE':
      return 'none';
    case 'ANY':
      if (names?.length === 1) return { name: names[0]! };
      if (names) w.extras[`${path}.allowedFunctionNames`] = names;
      return 'required';
    case 'VALIDATED':
      w.extras[path] = value;
      return undefined;
  }
}

function readGeminiGenerationConfig(w: Walk, value: unknown, request: WireRequest): void {
  const path = 'generationConfig';
  const c = w.object(
    value,
    path,
    [
      'maxOutputTokens',
      'temperature',
      'topP',
      'topK',
      'presencePenalty',
      'frequencyPenalty',
      'stopSequences',
      'responseMimeType',
      'responseSchema',
      'responseJsonSchema',
      'thinkingConfig',
    ],
    [
      'candidateCount',
      'seed',
      'responseLogprobs',
      'logprobs',
      'responseModalities',
      'mediaResolution',
      'speechConfig',
      'imageConfig',
      'audioTranscriptionConfig',
      'enableEnhancedCivicAnswers',
    ],
  );
  const opt = <T>(key: string, read: (v: unknown) => T): T | undefined => w.optional(c[key], false, read);
  request.maxTokens = opt('maxOutputTokens', (v) => w.integer(v, `${path}.maxOutputTokens`, 1));
  request.temperature = opt('temperature', (v) => w.number(v, `${path}.temperature`, 0, 2));
  request.topP = opt('topP', (v) => w.number(v, `${path}.topP`, 0, 1));
  request.topK = opt('topK', (v) => w.integer(v, `${path}.topK`, 1));
  request.presencePenalty = opt('presencePenalty', (v) => w.number(v, `${path}.presencePenalty`));
  request.frequencyPenalty = opt('frequencyPenalty', (v) => w.number(v, `${path}.frequencyPenalty`));
  request.stop =
    opt('stopSequences', (v) =>
      w.array(v, `${path}.stopSequences`).map((s, i) => w.string(s, `${path}.stopSequences[${i}]`)),
    ) ?? [];
  if (request.stop.length > 5) w.fail(`${path}.stopSequences`, 'takes at most 5 sequences');

  if (c.responseSchema !== undefined && c.responseJsonSchema !== undefined) {
    w.fail(path, 'sets both responseSchema and responseJsonSchema');
  }
  const schemaKey = c.responseSchema !== undefined ? 'responseSchema' : 'responseJsonSchema';
  const schema = opt(schemaKey, (v) => w.record(v, `${path}.${schemaKey}`));
  const mime = opt('responseMimeType', (v) => w.string(v, `${path}.responseMimeType`));
  if (schema && mime !== 'application/json')
    w.fail(`${path}.${schemaKey}`, 'needs responseMimeType application/json');
  if (mime === 'application/json')
    request.responseFormat = schema ? { type: 'json_schema', schema } : { type: 'json_object' };
  else if (mime === 'text/plain') request.responseFormat = { type: 'text' };
  else if (mime !== undefined) w.extras[`${path}.responseMimeType`] = mime;

  opt('thinkingConfig', (v) => {
    const t = w.object(v, `${path}.thinkingConfig`, ['thinkingBudget', 'includeThoughts', 'thinkingLevel']);
    const budget = w.optional(t.thinkingBudget, false, (b) =>
      w.integer(b, `${path}.thinkingConfig.thinkingBudget`, -1),
    );
    const level = w.optional(t.thinkingLevel, false, (l) =>
      w.oneOf(l, `${path}.thinkingConfig.thinkingLevel`, [
        'THINKING_LEVEL_UNSPECIFIED',
        'MINIMAL',
        'LOW',
        'MEDIUM',
        'HIGH',
      ]),
    );
    if (budget !== undefined && level !== undefined)
      w.fail(`${path}.thinkingConfig`, 'sets both thinkingBudget and thinkingLevel');
    request.reasoning = defined({
      budgetTokens: budget,
      effort: level?.toLowerCase(),
      includeThoughts: w.optional(t.includeThoughts, false, (b) =>
        w.boolean(b, `${path}.thinkingConfig.includeThoughts`),
      ),
    });
  });
}
