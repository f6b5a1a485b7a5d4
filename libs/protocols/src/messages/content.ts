import { thinkingBlockAt, TurnReasoning } from '../canonical/reasoning';
import type { TextContentPart, TextMessage, TextToolCall } from '../canonical/text-input';
import { invalid, isRecord, missing, unsupportedType, type Json } from '../canonical/wire';

/** `system` (a string or text blocks) -> the leading system message. */
export function mapSystem(system: unknown): TextMessage {
  if (typeof system === 'string') return { role: 'system', content: system };
  if (!Array.isArray(system)) throw invalid('system');
  const parts = system.map((block: unknown, index): TextContentPart => {
    const path = `system.${index}`;
    if (!isRecord(block)) throw invalid(path);
    if (block.type !== 'text') throw unsupportedType(path, block.type);
    if (typeof block.text !== 'string') throw missing(`${path}.text`);
    return { type: 'text', text: block.text };
  });
  return { role: 'system', content: parts };
}

/**
 * Translates `messages` to canonical messages. A user turn's `tool_result` blocks become tool messages (with the
 * `tool_use_id` as tool_call_id) and its other blocks, in order, user messages of text and image_url parts; an
 * assistant turn's text blocks join into its content, its `tool_use` blocks become tool calls (input
 * serialized as the arguments) and its reasoning blocks its reasoning (see `mapAssistant`). Documents, file
 * sources and server-tool blocks are refused with their dot path.
 */
export function mapMessages(messages: unknown): TextMessage[] {
  if (messages === undefined) throw missing('messages');
  if (!Array.isArray(messages)) throw invalid('messages');
  const result: TextMessage[] = [];
  messages.forEach((message: unknown, index) => {
    const path = `messages.${index}`;
    if (!isRecord(message)) throw invalid(path);
    if (message.role === 'user') result.push(...mapUser(message.content, `${path}.content`, result));
    else if (message.role === 'assistant') result.push(mapAssistant(message.content, `${path}.content`));
    else throw invalid(`${path}.role`);
  });
  return result;
}

function mapUser(content: unknown, path: string, earlier: TextMessage[]): TextMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  if (!Array.isArray(content)) throw invalid(path);
  const messages: TextMessage[] = [];
  let parts: TextContentPart[] | undefined;
  content.forEach((block: unknown, index) => {
    const blockPath = `${path}.${index}`;
    if (!isRecord(block)) throw invalid(blockPath);
    if (block.type === 'tool_result') {
      parts = undefined;
      messages.push(mapToolResult(block, blockPath, earlier));
      return;
    }
    if (!parts) {
      parts = [];
      messages.push({ role: 'user', content: parts });
    }
    parts.push(mapPart(block, blockPath));
  });
  // An empty block list is still a (contentless) user turn.
  return messages.length === 0 ? [{ role: 'user', content: [] }] : messages;
}

function mapPart(block: Json, path: string): TextContentPart {
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw missing(`${path}.text`);
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image_url', image_url: { url: imageUrl(block.source, `${path}.source`) } };
    default:
      throw unsupportedType(path, block.type);
  }
}

/** A base64 source becomes a data URL, a url source its URL; file sources need stored state and are refused. */
function imageUrl(source: unknown, path: string): string {
  if (!isRecord(source)) throw missing(path);
  if (source.type === 'base64') {
    if (typeof source.media_type !== 'string') throw missing(`${path}.media_type`);
    if (typeof source.data !== 'string') throw missing(`${path}.data`);
    return `data:${source.media_type};base64,${source.data}`;
  }
  if (source.type === 'url') {
    if (typeof source.url !== 'string') throw missing(`${path}.url`);
    return source.url;
  }
  throw unsupportedType(path, source.type);
}

/** A tool_result must answer a tool_use earlier in the conversation: same id (Anthropic refuses it otherwise). */
function mapToolResult(block: Json, path: string, earlier: TextMessage[]): TextMessage {
  if (typeof block.tool_use_id !== 'string' || block.tool_use_id === '') throw missing(`${path}.tool_use_id`);
  const id = block.tool_use_id;
  if (!earlier.some((message) => message.tool_calls?.some((call) => call.id === id))) {
    throw invalid(`${path}.tool_use_id`);
  }
  const content = block.content ?? '';
  if (typeof content === 'string') return { role: 'tool', tool_call_id: block.tool_use_id, content };
  if (!Array.isArray(content)) throw invalid(`${path}.content`);
  const parts = content.map((part: unknown, index) => {
    const partPath = `${path}.content.${index}`;
    if (!isRecord(part)) throw invalid(partPath);
    return mapPart(part, partPath);
  });
  return { role: 'tool', tool_call_id: block.tool_use_id, content: parts };
}

/**
 * An assistant turn as one canonical assistant message. Its reasoning blocks, in order, become the message's
 * `thinking_blocks` as they came (a `thinking` block with its signature, a `redacted_thinking` block with its
 * data: what Anthropic wants back unchanged), and the text of its thinking blocks, joined, its
 * `reasoning_content`. A thinking block with an empty signature is reasoning nobody signed (what this service
 * writes for an upstream that does not sign, see `reasoningBlocks`): its text joins `reasoning_content` and it is
 * no block, since no upstream would take it back. A malformed block is refused at its path.
 */
function mapAssistant(content: unknown, path: string): TextMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  if (!Array.isArray(content)) throw invalid(path);
  const texts: string[] = [];
  const calls: TextToolCall[] = [];
  const reasoning = new TurnReasoning();
  content.forEach((block: unknown, index) => {
    const blockPath = `${path}.${index}`;
    if (!isRecord(block)) throw invalid(blockPath);
    if (block.type === 'thinking' && block.signature === '') {
      if (typeof block.thinking !== 'string') throw missing(`${blockPath}.thinking`);
      reasoning.text(block.thinking);
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const signed = thinkingBlockAt(block, blockPath, 'drop');
      reasoning.block(signed);
      if (signed.type === 'thinking') reasoning.text(signed.thinking);
    } else if (block.type === 'text') {
      if (typeof block.text !== 'string') throw missing(`${blockPath}.text`);
      texts.push(block.text);
    } else if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || block.id === '') throw missing(`${blockPath}.id`);
      if (typeof block.name !== 'string' || block.name === '') throw missing(`${blockPath}.name`);
      if (!isRecord(block.input)) throw invalid(`${blockPath}.input`);
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    } else {
      throw unsupportedType(blockPath, block.type);
    }
  });
  const message: TextMessage = {
    role: 'assistant',
    content: texts.length === 0 && calls.length > 0 ? null : texts.join(''),
  };
  if (calls.length > 0) message.tool_calls = calls;
  return reasoning.applyTo(message);
}
