import { thinkingBlockAt } from '../canonical/reasoning';
import type { TextContentPart, TextMessage, TextToolCall } from '../canonical/text-input';
import { type Json, invalid, isObject, missing, refuseUnknownKeys, stringAt, unsupported } from './wire';

const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const DETAILS: ReadonlySet<string> = new Set(['auto', 'low', 'high']);
const TEXT_PART_KEYS: ReadonlySet<string> = new Set(['type', 'text']);
const IMAGE_PART_KEYS: ReadonlySet<string> = new Set(['type', 'image_url']);
const IMAGE_URL_KEYS: ReadonlySet<string> = new Set(['url', 'detail']);
const TOOL_CALL_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'function']);
const FUNCTION_CALL_KEYS: ReadonlySet<string> = new Set(['name', 'arguments']);

/** The keys each role may carry, besides the ones echoed back from a response (see `ECHOED`). */
const MESSAGE_KEYS: Readonly<Record<TextMessage['role'], ReadonlySet<string>>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'reasoning_content', 'thinking_blocks']),
  tool: new Set(['role', 'content', 'tool_call_id']),
};

/**
 * Fields of an assistant message that a client copies back from a previous response (the SDK's message object:
 * `refusal`, `annotations`). They are dropped: the canonical message has no place for them. A non-empty one is
 * listed as ignored; a null or empty one carries nothing and is dropped silently. Our own `reasoning_content` and
 * `thinking_blocks` are not among them: they are canonical fields, kept as sent.
 */
const ECHOED: ReadonlySet<string> = new Set(['refusal', 'annotations']);

/**
 * The `messages` array to canonical messages (the same shape: chat completions is the canonical protocol), with
 * the structural checks the canonical schema cannot phrase in the client's terms: a part type or message field
 * OpenAI has but this service does not (`input_audio`, `file`, `audio`, `function_call`) is `unsupported_parameter`
 * at its path; a missing or mistyped one is `invalid_request`. Dropped echo fields are pushed to `ignored`.
 */
export function mapMessages(value: unknown, ignored: string[]): TextMessage[] {
  if (value === undefined || value === null) throw missing('messages');
  if (!Array.isArray(value)) throw invalid('messages');
  if (value.length === 0) throw invalid('messages');
  return value.map((message, i) => mapMessage(message, `messages.${i}`, ignored));
}

function mapMessage(value: unknown, path: string, ignored: string[]): TextMessage {
  if (!isObject(value)) throw invalid(path);
  if (value['role'] === undefined) throw missing(`${path}.role`);
  const role = value['role'];
  if (typeof role !== 'string' || !ROLES.has(role)) throw invalid(`${path}.role`);
  const typed = role as TextMessage['role'];
  for (const key of Object.keys(value)) {
    const field = value[key];
    // A null field is an absent one (what SDKs send for an unset optional field).
    if (MESSAGE_KEYS[typed].has(key) || field === undefined || field === null) continue;
    if (typed === 'assistant' && ECHOED.has(key)) {
      if (!isEmpty(field)) ignored.push(`${path}.${key}`);
      continue;
    }
    throw unsupported(`${path}.${key}`);
  }

  const message: TextMessage = { role: typed, content: content(value, typed, path) };
  if (value['name'] !== undefined && value['name'] !== null)
    message.name = stringAt(value['name'], `${path}.name`);
  if (typed === 'tool') {
    if (value['tool_call_id'] === undefined || value['tool_call_id'] === null) {
      throw missing(`${path}.tool_call_id`);
    }
    message.tool_call_id = stringAt(value['tool_call_id'], `${path}.tool_call_id`);
  }
  if (typed === 'assistant' && value['tool_calls'] !== undefined && value['tool_calls'] !== null) {
    message.tool_calls = toolCalls(value['tool_calls'], `${path}.tool_calls`);
  }
  if (typed === 'assistant') reasoningOf(value, message, path);
  return message;
}

/**
 * An assistant message's reasoning, as a response of ours wrote it: `reasoning_content` (the text, kept as the
 * client sent it) and `thinking_blocks` (LiteLLM's shape; each block closed and complete, because it goes back
 * upstream as it is: a thinking block needs its text and a non-empty signature, a redacted one its data).
 */
function reasoningOf(value: Json, message: TextMessage, path: string): void {
  const text = value['reasoning_content'];
  if (text !== undefined && text !== null)
    message.reasoning_content = stringAt(text, `${path}.reasoning_content`);
  const blocks = value['thinking_blocks'];
  if (blocks === undefined || blocks === null) return;
  if (!Array.isArray(blocks)) throw invalid(`${path}.thinking_blocks`);
  message.thinking_blocks = blocks.map((block, k) =>
    thinkingBlockAt(block, `${path}.thinking_blocks.${k}`, 'refuse'),
  );
}

const isEmpty = (value: unknown): boolean =>
  value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** An assistant message may omit its content (a tool-call turn): canonical `null`. Other roles must carry one. */
function content(message: Json, role: TextMessage['role'], path: string): TextMessage['content'] {
  const value = message['content'];
  if (value === undefined || value === null) {
    if (role === 'assistant') return null;
    throw missing(`${path}.content`);
  }
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid(`${path}.content`);
  return value.map((part, j) => contentPart(part, `${path}.content.${j}`));
}

function contentPart(value: unknown, path: string): TextContentPart {
  if (!isObject(value)) throw invalid(path);
  const type = value['type'];
  if (type === 'text') {
    refuseUnknownKeys(value, TEXT_PART_KEYS, path);
    if (value['text'] === undefined) throw missing(`${path}.text`);
    return { type: 'text', text: stringAt(value['text'], `${path}.text`) };
  }
  if (type === 'image_url') {
    refuseUnknownKeys(value, IMAGE_PART_KEYS, path);
    const image = value['image_url'];
    if (image === undefined) throw missing(`${path}.image_url`);
    if (!isObject(image)) throw invalid(`${path}.image_url`);
    refuseUnknownKeys(image, IMAGE_URL_KEYS, `${path}.image_url`);
    if (image['url'] === undefined) throw missing(`${path}.image_url.url`);
    const part: TextContentPart = {
      type: 'image_url',
      image_url: { url: stringAt(image['url'], `${path}.image_url.url`) },
    };
    const detail = image['detail'];
    if (detail !== undefined && detail !== null) {
      if (typeof detail !== 'string' || !DETAILS.has(detail)) throw invalid(`${path}.image_url.detail`);
      part.image_url.detail = detail as 'auto' | 'low' | 'high';
    }
    return part;
  }
  if (type === undefined) throw missing(`${path}.type`);
  // `input_audio`, `file`, `refusal` and any other part: the part itself is not accepted (spec example path).
  throw unsupported(path);
}

function toolCalls(value: unknown, path: string): TextToolCall[] {
  if (!Array.isArray(value)) throw invalid(path);
  return value.map((call, k) => toolCall(call, `${path}.${k}`));
}

function toolCall(value: unknown, path: string): TextToolCall {
  if (!isObject(value)) throw invalid(path);
  refuseUnknownKeys(value, TOOL_CALL_KEYS, path);
  if (value['type'] === undefined) throw missing(`${path}.type`);
  // `custom` tool calls exist in OpenAI's API; only function tools exist here.
  if (value['type'] !== 'function') throw unsupported(`${path}.type`);
  if (value['id'] === undefined) throw missing(`${path}.id`);
  const fn = value['function'];
  if (fn === undefined) throw missing(`${path}.function`);
  if (!isObject(fn)) throw invalid(`${path}.function`);
  refuseUnknownKeys(fn, FUNCTION_CALL_KEYS, `${path}.function`);
  if (fn['name'] === undefined) throw missing(`${path}.function.name`);
  if (fn['arguments'] === undefined) throw missing(`${path}.function.arguments`);
  return {
    id: stringAt(value['id'], `${path}.id`),
    type: 'function',
    function: {
      name: stringAt(fn['name'], `${path}.function.name`),
      arguments: stringAt(fn['arguments'], `${path}.function.arguments`),
    },
  };
}
