import type { ChatResult, TextMessage, TextThinkingBlock } from './text-input';
import { invalid, isRecord, missing, unsupported, unsupportedType } from './wire';

/**
 * Reasoning on the way out and back in, shared by the four protocols.
 *
 * The canonical answer has its reasoning text (`ChatResult.reasoning`) and, from an upstream that signs it
 * (Anthropic), the signed blocks that text is cut into (`ChatResult.thinkingBlocks`); the canonical assistant
 * message a client sends back has `reasoning_content` (all the reasoning text it saw: informational) and
 * `thinking_blocks` (the signed blocks, which go back upstream unchanged). Every protocol reads its own reasoning
 * shapes into those two fields the same way: `reasoning_content` is the reasoning text of the turn joined (set
 * when not empty), `thinking_blocks` the signed blocks in order.
 */

/**
 * The reasoning text that no signature closed: what follows the signed blocks' text (all of it from an upstream
 * that does not sign). `aggregate` cuts the reasoning into blocks at each signature, so the blocks' texts are the
 * start of `reasoning`, in order.
 */
export function unsignedReasoning(result: Pick<ChatResult, 'reasoning' | 'thinkingBlocks'>): string {
  return result.reasoning.slice(signedText(result.thinkingBlocks).length);
}

/** The text of the signed thinking blocks, joined (redacted blocks have none). */
export function signedText(blocks: readonly TextThinkingBlock[]): string {
  return blocks.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
}

/**
 * The reasoning text of an assistant message beyond its blocks' text: what a request writer sends as unsigned
 * reasoning so that the mapper joins back the same `reasoning_content`. When `reasoning_content` does not start
 * with the blocks' text (a message no answer of ours produced) it is written whole, and does not map back.
 */
export function unsignedReasoningOf(message: TextMessage): string {
  const all = message.reasoning_content ?? '';
  const signed = signedText(message.thinking_blocks ?? []);
  return all.startsWith(signed) ? all.slice(signed.length) : all;
}

/** Gathers the reasoning of one assistant turn as a mapper reads it, and sets it on the canonical message. */
export class TurnReasoning {
  private readonly texts: string[] = [];
  private readonly blocks: TextThinkingBlock[] = [];

  text(text: string): void {
    this.texts.push(text);
  }

  block(block: TextThinkingBlock): void {
    this.blocks.push(block);
  }

  get empty(): boolean {
    return this.texts.length === 0 && this.blocks.length === 0;
  }

  /** `reasoning_content` when the joined text is not empty, `thinking_blocks` when there are blocks. */
  applyTo(message: TextMessage): TextMessage {
    const text = this.texts.join('');
    if (text !== '') message.reasoning_content = (message.reasoning_content ?? '') + text;
    if (this.blocks.length) message.thinking_blocks = [...(message.thinking_blocks ?? []), ...this.blocks];
    return message;
  }
}

const THINKING_KEYS: ReadonlySet<string> = new Set(['type', 'thinking', 'signature']);
const REDACTED_KEYS: ReadonlySet<string> = new Set(['type', 'data']);

/**
 * A thinking block of the wire (`{type: 'thinking', thinking, signature}` or `{type: 'redacted_thinking', data}`,
 * Anthropic's and LiteLLM's shape) as the canonical block, or 400 at the dot path of what is wrong: a missing or
 * mistyped field, an empty signature or data (nothing Anthropic would take back), another type. With
 * `otherKeys: 'refuse'` (chat completions, whose mapper refuses unknown keys everywhere) any other key is
 * `unsupported_parameter`; with `'drop'` (messages, whose blocks may carry fields of newer API versions) it is
 * left out of the canonical block.
 */
export function thinkingBlockAt(
  value: unknown,
  path: string,
  otherKeys: 'refuse' | 'drop',
): TextThinkingBlock {
  if (!isRecord(value)) throw invalid(path);
  const type = value['type'];
  if (type === undefined || type === null) throw missing(`${path}.type`);
  if (type !== 'thinking' && type !== 'redacted_thinking') throw unsupportedType(path, type);
  if (otherKeys === 'refuse') {
    const known = type === 'thinking' ? THINKING_KEYS : REDACTED_KEYS;
    for (const key of Object.keys(value)) {
      if (!known.has(key) && value[key] !== undefined && value[key] !== null)
        throw unsupported(`${path}.${key}`);
    }
  }
  if (type === 'redacted_thinking') return { type, data: nonEmptyString(value['data'], `${path}.data`) };
  const thinking = value['thinking'];
  if (thinking === undefined || thinking === null) throw missing(`${path}.thinking`);
  if (typeof thinking !== 'string') throw invalid(`${path}.thinking`);
  return { type, thinking, signature: nonEmptyString(value['signature'], `${path}.signature`) };
}

function nonEmptyString(value: unknown, path: string): string {
  if (value === undefined || value === null) throw missing(path);
  if (typeof value !== 'string' || value === '') throw invalid(path);
  return value;
}

/**
 * Signed reasoning in a protocol that has no block of its own carries the canonical block as an opaque token the
 * client keeps and sends back as it came: Responses' `encrypted_content`, generate content's `thoughtSignature`.
 * The token is standard padded base64 (what Google's JSON writes for `bytes`, so SDKs that decode
 * `thoughtSignature` into bytes and encode it again give it back intact) of this marker and the block's JSON, in
 * UTF-8. It is not encrypted: the text in it is the account's own answer, and what keeps a block honest is
 * Anthropic's signature inside it, checked upstream like any block sent back.
 */
const TOKEN_MARKER = 'thinking-block/1\n';

export function thinkingToken(block: TextThinkingBlock): string {
  return Buffer.from(TOKEN_MARKER + JSON.stringify(block), 'utf8').toString('base64');
}

/**
 * The block of a token of ours, or undefined for a value that is not one (OpenAI's encrypted reasoning, a
 * Gemini thought signature, Google's documented `skip_thought_signature_validator`): such a value means nothing
 * to any upstream here, and the mapper lists it as ignored. A token of ours that does not decode to a block is
 * 400 at `path`. Both base64 alphabets are read, with or without padding.
 */
export function thinkingBlockOfToken(token: string, path: string): TextThinkingBlock | undefined {
  const text = Buffer.from(token, 'base64').toString('utf8');
  if (!text.startsWith(TOKEN_MARKER)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(TOKEN_MARKER.length));
  } catch {
    throw invalid(path);
  }
  try {
    return thinkingBlockAt(value, path, 'refuse');
  } catch {
    // The token is opaque to the client: whatever is wrong inside it, the field it sent is what is invalid.
    throw invalid(path);
  }
}
