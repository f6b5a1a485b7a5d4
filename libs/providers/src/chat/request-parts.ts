import {
  chatImagesOf,
  type ChatCallOptions,
  type ChatContentPart,
  type ChatMessage,
  type ChatRequest,
} from '@gen/contracts';
import { UpstreamError } from './upstream-error';

/** An image as an upstream that takes bytes wants it: the media type and the base64 of the bytes. */
export interface InlineImage {
  readonly mediaType: string;
  readonly base64: string;
}

/** The images of a request an adapter sends as bytes, read before the body is written (by URL). */
export type ReadImages = ReadonlyMap<string, InlineImage>;

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** A base64 `data:` URL's type and data as sent (the acceptance checked both); undefined for any other URL. */
export function inlineDataUrl(url: string): InlineImage | undefined {
  const match = DATA_URL.exec(url);
  return match ? { mediaType: match[1]!.toLowerCase(), base64: match[2]! } : undefined;
}

export const isServiceUri = (url: string): boolean => url.startsWith('service://');

/** The text of a message's content: a string, or its text parts joined (image parts carry no text). */
export function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/** The parts of a message's content (a string is one text part; an empty string none). */
export function contentParts(content: ChatMessage['content']): ChatContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content ?? [];
}

/** `stop` as a list (the canonical field takes a string or a list). */
export function stopList(stop: ChatRequest['stop']): string[] {
  if (stop === undefined) return [];
  return typeof stop === 'string' ? (stop === '' ? [] : [stop]) : stop;
}

/** System and developer messages are the upstream's system instruction. */
export const isSystem = (message: ChatMessage): boolean =>
  message.role === 'system' || message.role === 'developer';

/** The image URLs of a request that are not `data:` URLs (whose bytes are in the request), each once. */
export function imageUrlsOf(request: ChatRequest): string[] {
  return [...new Set(chatImagesOf(request).map(({ url }) => url))].filter((url) => !url.startsWith('data:'));
}

/**
 * One image's bytes through `options.readImage` (the task's account's `service://` files; https URLs through the
 * SSRF guard with the limits of uploads). Without a reader (a caller that cannot read images), it fails.
 */
export async function readImage(
  url: string,
  options: ChatCallOptions | undefined,
  signal: AbortSignal,
): Promise<InlineImage> {
  const reader = options?.readImage;
  if (!reader) throw new UpstreamError('failed', 'an image of the request cannot be read here');
  const image = await reader(url, signal);
  return { mediaType: image.contentType, base64: image.bytes.toString('base64') };
}

/** The bytes of an image part's URL: its own `data:` URL, or what `readImages` read; undefined for neither. */
export function inlineImage(url: string, read: ReadImages): InlineImage | undefined {
  return inlineDataUrl(url) ?? read.get(url);
}

/** An image the adapter needed as bytes but has none of (a reader that skipped it): a failure, never a silent drop. */
export function missingImage(): UpstreamError {
  return new UpstreamError('failed', 'an image of the request could not be read');
}
