// The sampling fields pass through under their own names (OpenAI's four and the aggregators' four).
import { CHAT_SAMPLING_FIELDS } from '@gen/contracts';
import { type MappedRequest, ProtocolError, type TextInput, type TextTool } from '../canonical/text-input';
import { mapMessages } from './request-messages';
import {
  type Json,
  invalid,
  isInteger,
  isNumber,
  isObject,
  missing,
  refuseUnknownKeys,
  stringAt,
  unsupported,
} from './wire';

/** Platform fields accepted and ignored (spec, field handling rule 4). */
const IGNORED_FIELDS = ['user', 'metadata', 'store'] as const;

/**
 * Every top-level field the mapper reads. Anything else is refused with `unsupported_parameter` (rule 3):
 * OpenAI's `logprobs`, `top_logprobs`, `logit_bias`, `seed`, `service_tier`, `modalities`, `audio`,
 * `prediction`, `functions`, ... and the aggregator fields of rule 8 (`models`, `route`, `provider`,
 * `transforms`, `plugins`, `usage`).
 */
const KNOWN: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  ...CHAT_SAMPLING_FIELDS,
  'stop',
  'reasoning_effort',
  'reasoning',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'stream',
  'stream_options',
  'n',
  ...IGNORED_FIELDS,
]);

const TOOL_KEYS: ReadonlySet<string> = new Set(['type', 'function']);
const FUNCTION_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'strict']);
const TOOL_CHOICE_WORDS: ReadonlySet<string> = new Set(['auto', 'none', 'required']);
const RESPONSE_FORMAT_TYPES: ReadonlySet<string> = new Set(['text', 'json_object', 'json_schema']);
const STREAM_OPTIONS_KEYS: ReadonlySet<string> = new Set(['include_usage', 'include_obfuscation']);

/**
 * `POST /v1/chat/completions` body to the canonical input. Chat completions is the canonical protocol, so fields
 * keep their names and values; what this does is refuse what the service does not offer (with the client's dot
 * path as `param`), fold the aliases (`max_completion_tokens`, the aggregator `reasoning` object) into their
 * canonical field, and record in `paths` which request field each canonical one came from. A null field is an
 * absent one. The model-dependent rules (ignore, clamp, nearest level) run afterwards on canonical names.
 */
export function mapChatCompletionsRequest(body: unknown): MappedRequest {
  if (!isObject(body)) throw new ProtocolError(400, 'invalid_request', 'request.body_required');
  const field = (name: string): unknown => (body[name] === null ? undefined : body[name]);
  for (const name of Object.keys(body)) {
    if (!KNOWN.has(name) && field(name) !== undefined) throw unsupported(name);
  }

  const model = field('model');
  if (model === undefined) throw missing('model');
  if (typeof model !== 'string' || model === '') throw invalid('model');

  const ignored: string[] = [];
  const paths: MappedRequest['paths'] = { messages: 'messages' };
  const input: TextInput = { messages: mapMessages(field('messages'), ignored) };

  const maxTokens = maxTokensOf(field('max_tokens'), field('max_completion_tokens'));
  if (maxTokens) {
    input.max_tokens = maxTokens.value;
    paths.max_tokens = maxTokens.path;
  }
  for (const name of CHAT_SAMPLING_FIELDS) {
    const value = field(name);
    if (value === undefined) continue;
    if (!isNumber(value)) throw invalid(name);
    input[name] = value;
    paths[name] = name;
  }
  const stop = field('stop');
  if (stop !== undefined) {
    input.stop = stopOf(stop);
    paths.stop = 'stop';
  }
  const effort = reasoningEffortOf(field('reasoning_effort'), field('reasoning'), ignored);
  if (effort) {
    input.reasoning_effort = effort.value;
    paths.reasoning_effort = effort.path;
  }
  const tools = field('tools');
  if (tools !== undefined) {
    input.tools = toolsOf(tools);
    paths.tools = 'tools';
  }
  const toolChoice = field('tool_choice');
  if (toolChoice !== undefined) {
    input.tool_choice = toolChoiceOf(toolChoice);
    paths.tool_choice = 'tool_choice';
  }
  const parallel = field('parallel_tool_calls');
  if (parallel !== undefined) {
    if (typeof parallel !== 'boolean') throw invalid('parallel_tool_calls');
    input.parallel_tool_calls = parallel;
    paths.parallel_tool_calls = 'parallel_tool_calls';
  }
  const format = field('response_format');
  if (format !== undefined) {
    input.response_format = responseFormatOf(format);
    paths.response_format = 'response_format';
  }

  const n = field('n');
  if (n !== undefined) {
    if (!isInteger(n)) throw invalid('n');
    if (n !== 1) {
      throw new ProtocolError(400, 'unsupported_parameter', 'chat_completions.n_unsupported', {}, 'n');
    }
    ignored.push('n');
  }
  for (const name of IGNORED_FIELDS) if (field(name) !== undefined) ignored.push(name);

  const stream = field('stream') ?? false;
  if (typeof stream !== 'boolean') throw invalid('stream');
  const includeUsage = streamOptionsOf(field('stream_options'), stream, ignored);
  return { model, input, stream, includeUsage, ignored, paths };
}

/** Both names mean the same limit; both given with different values is ambiguous, so it is refused. */
function maxTokensOf(legacy: unknown, current: unknown): { value: number; path: string } | undefined {
  if (legacy !== undefined && !isInteger(legacy)) throw invalid('max_tokens');
  if (current !== undefined && !isInteger(current)) throw invalid('max_completion_tokens');
  if (legacy !== undefined && current !== undefined && legacy !== current) {
    throw new ProtocolError(
      400,
      'invalid_request',
      'chat_completions.max_tokens_conflict',
      {},
      'max_completion_tokens',
    );
  }
  if (current !== undefined) return { value: current, path: 'max_completion_tokens' };
  if (legacy !== undefined) return { value: legacy, path: 'max_tokens' };
  return undefined;
}

function stopOf(value: unknown): string | string[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid('stop');
  return value.map((entry, i) => stringAt(entry, `stop.${i}`));
}

/**
 * `reasoning_effort`, or the aggregator object of rule 8: `reasoning.effort` becomes `reasoning_effort`,
 * `reasoning.enabled: false` becomes `none` (path `reasoning.enabled`, which the field rules use to ignore it on a
 * model without a `none` level), `enabled: true` alone changes nothing and is listed as ignored, and every other
 * key (`max_tokens`, `exclude`, `summary`, ...) is listed as ignored. Two different levels asked at once: 400.
 */
function reasoningEffortOf(
  direct: unknown,
  object: unknown,
  ignored: string[],
): { value: string; path: string } | undefined {
  if (direct !== undefined && typeof direct !== 'string') throw invalid('reasoning_effort');
  if (object === undefined)
    return direct === undefined ? undefined : { value: direct, path: 'reasoning_effort' };
  if (!isObject(object)) throw invalid('reasoning');

  let fromObject: { value: string; path: string } | undefined;
  const enabled = object['enabled'] ?? undefined;
  const effort = object['effort'] ?? undefined;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw invalid('reasoning.enabled');
  if (effort !== undefined && typeof effort !== 'string') throw invalid('reasoning.effort');
  if (enabled === false) {
    if (effort !== undefined && effort !== 'none') throw conflict('reasoning');
    fromObject = { value: 'none', path: 'reasoning.enabled' };
    if (effort !== undefined) ignored.push('reasoning.effort');
  } else {
    if (effort !== undefined) fromObject = { value: effort, path: 'reasoning.effort' };
    if (enabled === true) ignored.push('reasoning.enabled');
  }
  for (const key of Object.keys(object)) {
    if (key !== 'enabled' && key !== 'effort' && object[key] !== undefined) ignored.push(`reasoning.${key}`);
  }
  if (direct === undefined) return fromObject;
  if (fromObject && fromObject.value !== direct) throw conflict('reasoning');
  return { value: direct, path: 'reasoning_effort' };
}

const conflict = (param: string): ProtocolError =>
  new ProtocolError(400, 'invalid_request', 'chat_completions.reasoning_conflict', {}, param);

function toolsOf(value: unknown): TextTool[] {
  if (!Array.isArray(value)) throw invalid('tools');
  return value.map((tool, i) => toolOf(tool, `tools.${i}`));
}

function toolOf(value: unknown, path: string): TextTool {
  if (!isObject(value)) throw invalid(path);
  if (value['type'] === undefined) throw missing(`${path}.type`);
  // `custom` tools and the server tools of other APIs exist elsewhere; only function tools exist here.
  if (value['type'] !== 'function') throw unsupported(`${path}.type`);
  refuseUnknownKeys(value, TOOL_KEYS, path);
  const fn = value['function'];
  if (fn === undefined || fn === null) throw missing(`${path}.function`);
  if (!isObject(fn)) throw invalid(`${path}.function`);
  refuseUnknownKeys(fn, FUNCTION_KEYS, `${path}.function`);
  if (fn['name'] === undefined || fn['name'] === null) throw missing(`${path}.function.name`);
  const tool: TextTool = {
    type: 'function',
    function: { name: stringAt(fn['name'], `${path}.function.name`) },
  };
  const { description, parameters, strict } = fn as Json;
  if (description !== undefined && description !== null) {
    tool.function.description = stringAt(description, `${path}.function.description`);
  }
  if (parameters !== undefined && parameters !== null) {
    if (!isObject(parameters)) throw invalid(`${path}.function.parameters`);
    tool.function.parameters = parameters;
  }
  if (strict !== undefined && strict !== null) {
    if (typeof strict !== 'boolean') throw invalid(`${path}.function.strict`);
    tool.function.strict = strict;
  }
  return tool;
}

function toolChoiceOf(value: unknown): NonNullable<TextInput['tool_choice']> {
  if (typeof value === 'string') {
    if (!TOOL_CHOICE_WORDS.has(value)) throw invalid('tool_choice');
    return value as 'auto' | 'none' | 'required';
  }
  if (!isObject(value)) throw invalid('tool_choice');
  if (value['type'] === undefined) throw missing('tool_choice.type');
  // `allowed_tools` and `custom` choices exist in OpenAI's API, not here.
  if (value['type'] !== 'function') throw unsupported('tool_choice.type');
  refuseUnknownKeys(value, TOOL_KEYS, 'tool_choice');
  const fn = value['function'];
  if (fn === undefined || fn === null) throw missing('tool_choice.function');
  if (!isObject(fn)) throw invalid('tool_choice.function');
  refuseUnknownKeys(fn, new Set(['name']), 'tool_choice.function');
  if (fn['name'] === undefined || fn['name'] === null) throw missing('tool_choice.function.name');
  return { type: 'function', function: { name: stringAt(fn['name'], 'tool_choice.function.name') } };
}

function responseFormatOf(value: unknown): NonNullable<TextInput['response_format']> {
  if (!isObject(value)) throw invalid('response_format');
  const type = value['type'];
  if (type === undefined || type === null) throw missing('response_format.type');
  if (typeof type !== 'string' || !RESPONSE_FORMAT_TYPES.has(type)) throw invalid('response_format.type');
  refuseUnknownKeys(
    value,
    new Set(['type', ...(type === 'json_schema' ? ['json_schema'] : [])]),
    'response_format',
  );
  const format: NonNullable<TextInput['response_format']> = {
    type: type as 'text' | 'json_object' | 'json_schema',
  };
  if (type === 'json_schema') {
    const schema = value['json_schema'];
    if (schema === undefined || schema === null) throw missing('response_format.json_schema');
    if (!isObject(schema)) throw invalid('response_format.json_schema');
    format.json_schema = schema;
  }
  return format;
}

/**
 * `stream_options.include_usage`; like OpenAI, `stream_options` on a request that does not stream is refused.
 * `include_obfuscation` (OpenAI's padding of stream chunks) is listed as ignored: chunks are never padded.
 */
function streamOptionsOf(value: unknown, stream: boolean, ignored: string[]): boolean {
  if (value === undefined) return false;
  if (!isObject(value)) throw invalid('stream_options');
  if (!stream) {
    throw new ProtocolError(
      400,
      'invalid_request',
      'chat_completions.stream_options_without_stream',
      {},
      'stream_options',
    );
  }
  refuseUnknownKeys(value, STREAM_OPTIONS_KEYS, 'stream_options');
  const include = value['include_usage'] ?? false;
  if (typeof include !== 'boolean') throw invalid('stream_options.include_usage');
  if (value['include_obfuscation'] !== undefined && value['include_obfuscation'] !== null) {
    ignored.push('stream_options.include_obfuscation');
  }
  return include;
}
