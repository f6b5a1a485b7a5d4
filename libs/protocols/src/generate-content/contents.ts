import { thinkingBlockOfToken, TurnReasoning } from '../canonical/reasoning';
import {
  ProtocolError,
  type TextContentPart,
  type TextMessage,
  type TextToolCall,
} from '../canonical/text-input';
import {
  arrayOf,
  fieldsOf,
  invalid,
  isObject,
  join,
  missing,
  stringOf,
  unsupported,
  type Field,
} from './fields';

/** Image types accepted inline or by URL (spec: Limits, image upload). */
export const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

const CONTENT_FIELDS = ['role', 'parts'];
/**
 * Part fields read. `executableCode` / `codeExecutionResult` (server-side code execution), `videoMetadata` and the
 * rest are refused as unknown.
 */
const PART_FIELDS = [
  'text',
  'thought',
  'thoughtSignature',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
];
const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

/** `systemInstruction` (a Content of text parts) as the system message. */
export function systemMessage(field: Field): TextMessage {
  const fields = fieldsOf(field.value, field.path, CONTENT_FIELDS);
  if (!fields.parts) throw missing(join(field.path, 'parts'));
  const texts = arrayOf(fields.parts).map((part, index) => {
    const path = join(fields.parts!.path, index);
    const partFields = fieldsOf(part, path, PART_FIELDS);
    const data = DATA_FIELDS.filter((name) => partFields[name]);
    if (data.length !== 1 || !partFields.text) throw invalid(path);
    return stringOf(partFields.text);
  });
  if (texts.length === 0) throw invalid(fields.parts.path);
  return {
    role: 'system',
    content: texts.length === 1 ? texts[0]! : texts.map((text) => ({ type: 'text', text })),
  };
}

/**
 * `contents` as canonical messages. A `model` turn becomes one assistant message (its text parts joined, its
 * `functionCall`s as tool calls, its reasoning as `modelTurn` reads it); a `user` turn becomes its
 * `functionResponse`s as tool messages, then its other parts as one user message. A call without
 * an `id` gets `call_<n>`, n counting the calls of the conversation from 0, so the same history always gets the
 * same ids; a response is matched to the previous model turn's unanswered call by `id` when it has one, else by
 * name, in order. Roles must alternate (spec rule 6); an absent role is `user`, as the API treats it.
 */
export function contentMessages(field: Field, ignored: string[] = []): TextMessage[] {
  const contents = arrayOf(field);
  if (contents.length === 0) throw invalid(field.path);
  const messages: TextMessage[] = [];
  let previousRole: string | undefined;
  let pending: PendingCall[] = [];
  let callCount = 0;
  contents.forEach((content, index) => {
    const path = join(field.path, index);
    const fields = fieldsOf(content, path, CONTENT_FIELDS);
    const role = fields.role ? stringOf(fields.role) : 'user';
    if (role !== 'user' && role !== 'model') throw invalid(fields.role!.path);
    if (role === previousRole) {
      const rolePath = fields.role?.path ?? path;
      throw new ProtocolError(
        400,
        'invalid_request',
        'generate_content.roles_not_alternating',
        { param: rolePath },
        rolePath,
      );
    }
    previousRole = role;
    if (!fields.parts) throw missing(join(path, 'parts'));
    const parts = arrayOf(fields.parts);
    if (parts.length === 0) throw invalid(fields.parts.path);
    const partPath = (i: number): string => join(fields.parts!.path, i);
    if (role === 'model') {
      const turn = modelTurn(parts, partPath, callCount, ignored);
      callCount += turn.calls.length;
      pending = turn.calls.map((call) => ({ id: call.id, name: call.function.name, answered: false }));
      messages.push(turn.message);
    } else {
      messages.push(...userTurn(parts, partPath, pending));
      pending = [];
    }
  });
  return messages;
}

/**
 * A model turn's parts as one assistant message. Thought parts (`thought: true`) are its reasoning text: joined,
 * the message's `reasoning_content`. A `thoughtSignature` that is a token of ours (see `signaturePart`) gives back
 * its signed block, which joins the message's `thinking_blocks` in order, unchanged; any other signature (Gemini's
 * own, from a conversation that began there, or Google's documented placeholder) means nothing to an upstream
 * here and is ignored, named in `ignored`.
 */
function modelTurn(
  parts: unknown[],
  partPath: (i: number) => string,
  firstCall: number,
  ignored: string[],
): { message: TextMessage; calls: TextToolCall[] } {
  let text: string | undefined;
  const calls: TextToolCall[] = [];
  const reasoning = new TurnReasoning();
  parts.forEach((part, index) => {
    const path = partPath(index);
    const fields = fieldsOf(part, path, PART_FIELDS);
    const data = dataField(fields, path);
    if (fields.thought && typeof fields.thought.value !== 'boolean') throw invalid(fields.thought.path);
    if (fields.thoughtSignature) {
      const signature = fields.thoughtSignature;
      const block = thinkingBlockOfToken(stringOf(signature), signature.path);
      if (block) reasoning.block(block);
      else ignored.push(signature.path);
    }
    if (!data) return;
    if (data.name === 'text') {
      const value = stringOf(data.field);
      if (fields.thought?.value === true) reasoning.text(value);
      else text = (text ?? '') + value;
    } else if (data.name === 'functionCall') {
      calls.push(toolCall(data.field, `call_${firstCall + calls.length}`));
    } else if (data.name === 'functionResponse') {
      throw invalid(data.field.path);
    } else {
      throw unsupported(data.field.path);
    }
  });
  const message: TextMessage = { role: 'assistant', content: text ?? (calls.length ? null : '') };
  if (calls.length) message.tool_calls = calls;
  return { message: reasoning.applyTo(message), calls };
}

function userTurn(parts: unknown[], partPath: (i: number) => string, pending: PendingCall[]): TextMessage[] {
  const tools: TextMessage[] = [];
  const content: TextContentPart[] = [];
  parts.forEach((part, index) => {
    const path = partPath(index);
    const fields = fieldsOf(part, path, PART_FIELDS);
    const data = dataField(fields, path);
    if (!data) throw missing(join(path, 'text'));
    switch (data.name) {
      case 'text':
        if (fields.thought?.value !== true) content.push({ type: 'text', text: stringOf(data.field) });
        break;
      case 'inlineData':
        content.push(inlineImage(data.field));
        break;
      case 'fileData':
        content.push(fileImage(data.field));
        break;
      case 'functionResponse':
        tools.push(toolMessage(data.field, pending));
        break;
      default:
        throw invalid(data.field.path);
    }
  });
  if (content.length === 0) return tools;
  const only = content[0];
  const user: TextMessage = {
    role: 'user',
    content: content.length === 1 && only?.type === 'text' ? only.text : content,
  };
  return [...tools, user];
}

/** The one data field of a part (text, inlineData, ...); none for a part carrying only a thought signature. */
function dataField(
  fields: Partial<Record<string, Field>>,
  path: string,
): { name: string; field: Field } | undefined {
  const present = DATA_FIELDS.filter((name) => fields[name]);
  if (present.length > 1) throw invalid(path);
  const name = present[0];
  return name === undefined ? undefined : { name, field: fields[name]! };
}

function toolCall(field: Field, fallbackId: string): TextToolCall {
  const fields = fieldsOf(field.value, field.path, ['id', 'name', 'args']);
  if (!fields.name) throw missing(join(field.path, 'name'));
  const name = stringOf(fields.name);
  if (fields.args && !isObject(fields.args.value)) throw invalid(fields.args.path);
  const id = fields.id ? stringOf(fields.id) : '';
  return {
    id: id === '' ? fallbackId : id,
    type: 'function',
    function: { name, arguments: JSON.stringify(fields.args?.value ?? {}) },
  };
}

/**
 * A `functionResponse` as the tool message answering its call. A response that is just `{output: "..."}` or
 * `{content: "..."}` (the conventions of Google's docs and of this service's own adapter) gives that text; any
 * other response object is sent as its JSON text.
 */
function toolMessage(field: Field, pending: PendingCall[]): TextMessage {
  const fields = fieldsOf(field.value, field.path, ['id', 'name', 'response']);
  if (!fields.name) throw missing(join(field.path, 'name'));
  const name = stringOf(fields.name);
  if (!fields.response) throw missing(join(field.path, 'response'));
  const response = fields.response.value;
  if (!isObject(response)) throw invalid(fields.response.path);
  const id = fields.id ? stringOf(fields.id) : undefined;
  const byId = id === undefined ? undefined : pending.find((c) => !c.answered && c.id === id);
  const call = byId ?? pending.find((c) => !c.answered && c.name === name);
  if (!call || call.name !== name) {
    const path = fields.name.path;
    throw new ProtocolError(
      400,
      'invalid_request',
      'generate_content.unmatched_function_response',
      { param: path },
      path,
    );
  }
  call.answered = true;
  const keys = Object.keys(response);
  const only = keys.length === 1 ? response[keys[0]!] : undefined;
  const text =
    (keys[0] === 'output' || keys[0] === 'content') && typeof only === 'string'
      ? only
      : JSON.stringify(response);
  return { role: 'tool', tool_call_id: call.id, content: text };
}

function imageType(field: Field | undefined, required: string): string | undefined {
  if (!field) {
    if (required) throw missing(required);
    return undefined;
  }
  const mimeType = stringOf(field);
  if (!IMAGE_TYPES.includes(mimeType.toLowerCase())) {
    throw new ProtocolError(
      400,
      'unsupported_parameter',
      'generate_content.unsupported_media',
      { mimeType, param: field.path },
      field.path,
    );
  }
  return mimeType.toLowerCase();
}

/** `inlineData` (base64, standard or URL-safe alphabet) as a `data:` URL image part. */
function inlineImage(field: Field): TextContentPart {
  const fields = fieldsOf(field.value, field.path, ['mimeType', 'data']);
  const mimeType = imageType(fields.mimeType, join(field.path, 'mimeType'));
  if (!fields.data) throw missing(join(field.path, 'data'));
  const data = stringOf(fields.data).replace(/-/g, '+').replace(/_/g, '/');
  if (data === '' || !BASE64.test(data)) throw invalid(fields.data.path);
  return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
}

/** `fileData.fileUri` as an image URL part: https only (spec rule 6); `gs://` and the like are refused. */
function fileImage(field: Field): TextContentPart {
  const fields = fieldsOf(field.value, field.path, ['mimeType', 'fileUri']);
  imageType(fields.mimeType, '');
  if (!fields.fileUri) throw missing(join(field.path, 'fileUri'));
  const uri = stringOf(fields.fileUri);
  let https = false;
  try {
    https = new URL(uri).protocol === 'https:';
  } catch {
    https = false;
  }
  if (!https) {
    const path = fields.fileUri.path;
    throw new ProtocolError(
      400,
      'unsupported_parameter',
      'generate_content.file_uri_not_https',
      { param: path },
      path,
    );
  }
  return { type: 'image_url', image_url: { url: uri } };
}
