import { thinkingBlockOfToken, TurnReasoning } from '../canonical/reasoning';
import type { TextContentPart, TextMessage } from '../canonical/text-input';
import { invalid, isRecord, missing, unsupportedType, type Json } from '../canonical/wire';

type ImageDetail = 'auto' | 'low' | 'high';

/**
 * Translates `instructions` and `input` to canonical messages. `instructions` becomes the leading system message;
 * a string `input` one user message. A list holds message items (roles user, assistant, system, developer; parts
 * input_text / output_text / refusal / input_image), `function_call` items (joined onto the assistant message
 * right before them, or a new one) and `function_call_output` items (tool messages carrying the `call_id`, which
 * must be the `call_id` of an earlier function_call), and `reasoning` items (see `addReasoning`). Items that
 * point at stored state (`item_reference`, file ids) and server-tool items are refused with their dot path.
 * Fields read and ignored are pushed to `ignored`.
 */
export function mapInput(instructions: unknown, input: unknown, ignored: string[] = []): TextMessage[] {
  const messages: TextMessage[] = [];
  if (instructions !== undefined) {
    if (typeof instructions !== 'string') throw invalid('instructions');
    messages.push({ role: 'system', content: instructions });
  }
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  if (!Array.isArray(input)) throw invalid('input');
  // The assistant message reasoning items opened, until an item gives it content or calls.
  let reasoningOnly: TextMessage | undefined;
  input.forEach((item: unknown, index) => {
    const path = `input.${index}`;
    if (!isRecord(item)) throw invalid(path);
    const type = item.type ?? 'message';
    switch (type) {
      case 'message': {
        const message = mapMessage(item, path);
        if (message.role === 'assistant' && reasoningOnly) reasoningOnly.content = message.content;
        else messages.push(message);
        break;
      }
      case 'function_call':
        addToolCall(messages, item, path);
        break;
      case 'function_call_output':
        messages.push(mapToolOutput(item, path, messages));
        break;
      case 'reasoning':
        reasoningOnly = addReasoning(messages, reasoningOnly, item, path, ignored);
        return;
      default:
        throw unsupportedType(path, type);
    }
    reasoningOnly = undefined;
  });
  return messages;
}

/**
 * A `reasoning` item, as an earlier output of ours wrote it: its summary text joins the assistant turn's
 * `reasoning_content` (or its `reasoning_text` content, when it has no summary: the form of other servers and of
 * earlier answers of ours), and an `encrypted_content` of ours gives back the signed block, which joins the turn's
 * `thinking_blocks` unchanged. The items of one turn come before its message and function calls (the order of
 * the output), so the first reasoning item opens an assistant message that the following reasoning items, the
 * assistant message item and the function calls of the turn complete. An `encrypted_content` that is not ours
 * (OpenAI's, from a conversation that began there) means nothing to any upstream here: it is ignored and named
 * in `ignored`; an item that carries nothing opens no message. Returns the message the turn's reasoning is in.
 */
function addReasoning(
  messages: TextMessage[],
  open: TextMessage | undefined,
  item: Json,
  path: string,
  ignored: string[],
): TextMessage | undefined {
  const turn = new TurnReasoning();
  const summary = reasoningTexts(item.summary, `${path}.summary`, 'summary_text');
  const content = reasoningTexts(item.content, `${path}.content`, 'reasoning_text');
  for (const text of summary.length ? summary : content) turn.text(text);
  const token = item.encrypted_content;
  if (token !== undefined && token !== null) {
    if (typeof token !== 'string') throw invalid(`${path}.encrypted_content`);
    const block = thinkingBlockOfToken(token, `${path}.encrypted_content`);
    if (block) turn.block(block);
    else ignored.push(`${path}.encrypted_content`);
  }
  if (turn.empty) return open;
  let message = open;
  if (!message) {
    message = { role: 'assistant', content: null };
    messages.push(message);
  }
  turn.applyTo(message);
  return message;
}

/** The texts of a reasoning item's `summary` (summary_text parts) or `content` (reasoning_text parts). */
function reasoningTexts(parts: unknown, path: string, type: string): string[] {
  if (parts === undefined || parts === null) return [];
  if (!Array.isArray(parts)) throw invalid(path);
  return parts.map((part: unknown, index) => {
    const partPath = `${path}.${index}`;
    if (!isRecord(part)) throw invalid(partPath);
    if (part.type !== type) throw unsupportedType(partPath, part.type);
    if (typeof part.text !== 'string') throw missing(`${partPath}.text`);
    return part.text;
  });
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function mapMessage(item: Json, path: string): TextMessage {
  const role = item.role;
  if (typeof role !== 'string' || !ROLES.has(role)) throw invalid(`${path}.role`);
  const content = item.content;
  if (typeof content === 'string') return { role: role as TextMessage['role'], content };
  if (!Array.isArray(content)) throw invalid(`${path}.content`);
  const parts = content.map((part: unknown, index) => mapPart(part, `${path}.content.${index}`));
  if (role !== 'assistant') return { role: role as TextMessage['role'], content: parts };
  // An assistant turn is text only: its output_text (and refusal) parts joined, as the model wrote them.
  const text = parts.map((part, index) => {
    if (part.type !== 'text') throw unsupportedType(`${path}.content.${index}`, 'input_image');
    return part.text;
  });
  return { role: 'assistant', content: text.join('') };
}

function mapPart(part: unknown, path: string): TextContentPart {
  if (!isRecord(part)) throw invalid(path);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text !== 'string') throw missing(`${path}.text`);
      return { type: 'text', text: part.text };
    case 'refusal':
      if (typeof part.refusal !== 'string') throw missing(`${path}.refusal`);
      return { type: 'text', text: part.refusal };
    case 'input_image': {
      if (part.file_id !== undefined && part.file_id !== null)
        throw unsupportedType(`${path}.file_id`, 'file_id');
      if (typeof part.image_url !== 'string') throw missing(`${path}.image_url`);
      const image: { url: string; detail?: ImageDetail } = { url: part.image_url };
      if (part.detail !== undefined && part.detail !== null) image.detail = part.detail as ImageDetail;
      return { type: 'image_url', image_url: image };
    }
    default:
      throw unsupportedType(path, part.type);
  }
}

function addToolCall(messages: TextMessage[], item: Json, path: string): void {
  if (typeof item.call_id !== 'string' || item.call_id === '') throw missing(`${path}.call_id`);
  if (typeof item.name !== 'string' || item.name === '') throw missing(`${path}.name`);
  if (typeof item.arguments !== 'string') throw missing(`${path}.arguments`);
  const call = {
    id: item.call_id,
    type: 'function' as const,
    function: { name: item.name, arguments: item.arguments },
  };
  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    (last.tool_calls ??= []).push(call);
  } else {
    messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  }
}

/** A function result must answer a function_call earlier in `input` (as OpenAI requires): same `call_id`. */
function mapToolOutput(item: Json, path: string, earlier: TextMessage[]): TextMessage {
  if (typeof item.call_id !== 'string' || item.call_id === '') throw missing(`${path}.call_id`);
  const callId = item.call_id;
  if (!earlier.some((message) => message.tool_calls?.some((call) => call.id === callId))) {
    throw invalid(`${path}.call_id`);
  }
  const output = item.output;
  if (typeof output === 'string') return { role: 'tool', tool_call_id: item.call_id, content: output };
  if (!Array.isArray(output)) throw missing(`${path}.output`);
  const content = output.map((part: unknown, index) => mapPart(part, `${path}.output.${index}`));
  return { role: 'tool', tool_call_id: item.call_id, content };
}
