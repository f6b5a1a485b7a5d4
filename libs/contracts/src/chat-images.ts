import { fileIdOfUri } from './files.ports';

/** The image types a chat image may be, by the name a `data:` URL gives (aliases included). */
const DATA_URL_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/gif',
]);
/** Spec, Limits: images up to 10 MiB (the limit of uploads). */
export const CHAT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const CHAT_IMAGE_URL_MAX_LENGTH = 2048;

const DATA_URL = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/s;

/** Why an image URL is refused: the `reason` its error names. */
export type ChatImageUrlProblem =
  | 'scheme'
  | 'data_url_type'
  | 'data_url_encoding'
  | 'too_large'
  | 'too_long'
  | 'port'
  | 'user_info'
  | 'service_uri';

/**
 * Whether an image part's URL may be accepted (checked at acceptance, before any hold): a base64 `data:` URL of a
 * PNG, JPEG, WebP or GIF of at most 10 MiB; an `https` URL on port 443 without user info, at most 2,048
 * characters (where it resolves to is checked by the SSRF guard when it is read); or a `service://files/fil_...`
 * URI (whose file must be a ready image of the caller's account: checked with the account's files). Anything
 * else (`http:`, `file:`, `gopher:`, `javascript:`, ...) is refused. Null when it may be accepted.
 */
export function chatImageUrlProblem(url: string): ChatImageUrlProblem | null {
  if (url.startsWith('data:')) {
    const match = DATA_URL.exec(url);
    if (!match) return /^data:[^;,]+;base64,/.test(url) ? 'data_url_encoding' : 'data_url_type';
    if (!DATA_URL_TYPES.has(match[1]!.toLowerCase())) return 'data_url_type';
    const data = match[2]!;
    const bytes = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    if (data.length % 4 !== 0) return 'data_url_encoding';
    return bytes > CHAT_IMAGE_MAX_BYTES ? 'too_large' : null;
  }
  if (url.startsWith('service:')) return fileIdOfUri(url) === null ? 'service_uri' : null;
  if (url.length > CHAT_IMAGE_URL_MAX_LENGTH) return 'too_long';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'scheme';
  }
  if (parsed.protocol !== 'https:') return 'scheme';
  if (parsed.username !== '' || parsed.password !== '') return 'user_info';
  if (parsed.port !== '' && parsed.port !== '443') return 'port';
  return null;
}

/** Each image part of a chat input's messages: its place (`messages.<i>.content.<j>`) and URL. */
export function chatImagesOf(input: { readonly messages?: unknown }): { path: string; url: string }[] {
  const messages = input.messages;
  if (!Array.isArray(messages)) return [];
  const images: { path: string; url: string }[] = [];
  messages.forEach((message: unknown, i) => {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return;
    content.forEach((part: unknown, j) => {
      const image = part as { type?: unknown; image_url?: { url?: unknown } } | null;
      if (image?.type === 'image_url' && typeof image.image_url?.url === 'string') {
        images.push({ path: `messages.${i}.content.${j}`, url: image.image_url.url });
      }
    });
  });
  return images;
}
