import {
  MEDIA_KIND_KEYWORD,
  MEDIA_KINDS,
  MEDIA_URI_FORMAT,
  SERVICE_FILE_URI,
  type MediaField,
  type MediaInputValue,
  type MediaKind,
} from '@gen/contracts';
import { hasUserInfo } from '@gen/ssrf';
import { isSchemaObject, subschemas, type SchemaNode } from './schema-walk';

/** Longest media URL accepted in input, in characters (as callback URLs). */
export const MAX_MEDIA_URL_LENGTH = 2048;

/**
 * The syntax of a media field's value, checked when the input is validated (no DNS, no fetch: the runner
 * guards the connection): a `service://files/fil_...` URI, or an `https` URL on the default port without
 * user info, control characters or whitespace, at most 2048 characters.
 */
export function isMediaUri(value: string): boolean {
  if (SERVICE_FILE_URI.test(value)) return true;
  if (value.length > MAX_MEDIA_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === '' &&
    !hasUserInfo(value)
  );
}

const isMarked = (node: SchemaNode): boolean =>
  node['format'] === MEDIA_URI_FORMAT || Object.hasOwn(node, MEDIA_KIND_KEYWORD);

/**
 * What is wrong with the media markers of an inputSchema, or null. A media field is a top-level property
 * with `"type": "string"`, `"format": "media-uri"` and `"x-media"` naming its kind; either keyword anywhere
 * else, or one without the other, is refused.
 */
export function mediaMarkerProblem(schema: unknown): { field: string; problem: string } | null {
  for (const { node, path } of subschemas(schema)) {
    if (!isMarked(node)) continue;
    const name = /^\/properties\/([^/]+)$/.exec(path)?.[1];
    const field = `inputSchema${path.replace(/\//g, '.')}`;
    if (name === undefined) {
      return {
        field,
        problem: `marks a media field, but only a top-level property may take media ("format": "${MEDIA_URI_FORMAT}" with "${MEDIA_KIND_KEYWORD}")`,
      };
    }
    const kind = node[MEDIA_KIND_KEYWORD];
    if (!MEDIA_KINDS.includes(kind as MediaKind)) {
      return { field: `${field}.${MEDIA_KIND_KEYWORD}`, problem: `must be one of ${MEDIA_KINDS.join(', ')}` };
    }
    if (node['format'] !== MEDIA_URI_FORMAT) {
      return { field: `${field}.format`, problem: `must be "${MEDIA_URI_FORMAT}" on a media field` };
    }
    if (node['type'] !== 'string')
      return { field: `${field}.type`, problem: 'must be "string" on a media field' };
  }
  return null;
}

/** The media fields of an inputSchema whose markers passed `mediaMarkerProblem`, in schema order. */
export function mediaFieldsOf(schema: Readonly<Record<string, unknown>>): MediaField[] {
  const properties = schema['properties'];
  if (!isSchemaObject(properties)) return [];
  return Object.entries(properties).flatMap(([field, sub]) =>
    isSchemaObject(sub) && sub['format'] === MEDIA_URI_FORMAT
      ? [{ field, kind: sub[MEDIA_KIND_KEYWORD] as MediaKind }]
      : [],
  );
}

/** The media fields a validated input fills, with their values. */
export function mediaInputsOf(
  fields: readonly MediaField[],
  input: Readonly<Record<string, unknown>>,
): MediaInputValue[] {
  return fields.flatMap(({ field, kind }) => {
    const value = input[field];
    return typeof value === 'string' ? [{ field, kind, value }] : [];
  });
}
