import type { FastifyInstance } from 'fastify';

/** Routes that take `multipart/form-data` as the protocol they copy does (OpenAI's `POST /v1/videos`). */
const FORM_ROUTES = new Set(['/v1/videos']);

/** Form bodies are small text fields: a file part (an upload) is not taken here. */
const MAX_FORM_BYTES = 1_048_576;

export class FormFileNotAccepted extends Error {
  constructor(readonly field: string) {
    super(`form field ${field} is a file`);
  }
}

/**
 * The text fields of a `multipart/form-data` body, by name (the last value of a repeated name). A part with a
 * filename throws FormFileNotAccepted. Malformed bodies throw a SyntaxError (400 invalid body).
 */
export function formFields(body: Buffer, contentType: string): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new SyntaxError('multipart body without a boundary');
  const delimiter = `--${boundary[1] ?? boundary[2]!.trim()}`;
  const fields: Record<string, string> = {};
  const parts = body.toString('utf8').split(delimiter);
  for (const part of parts.slice(1)) {
    if (part.startsWith('--')) break;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new SyntaxError('multipart part without headers');
    const headers = part.slice(0, headerEnd);
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new SyntaxError('multipart part without a name');
    if (/\bfilename\*?=/i.test(disposition)) throw new FormFileNotAccepted(name);
    fields[name] = part.slice(headerEnd + 4).replace(/\r\n$/, '');
  }
  return fields;
}

/**
 * Accepts `multipart/form-data` on the routes of FORM_ROUTES only, as an object of its text fields; every other
 * route keeps refusing it (415, as any content type but JSON).
 */
export function installFormFields(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_FORM_BYTES },
    (request, body, done) => {
      if (!FORM_ROUTES.has(request.url.split('?')[0]!)) {
        done(Object.assign(new Error('unsupported media type'), { statusCode: 415 }), undefined);
        return;
      }
      try {
        done(null, formFields(body as Buffer, String(request.headers['content-type'] ?? '')));
      } catch (error) {
        if (error instanceof FormFileNotAccepted) {
          // Passed on as a field the route refuses by name (the protocol's own error).
          done(null, { [error.field]: { file: true } });
          return;
        }
        done(Object.assign(error as Error, { statusCode: 400 }), undefined);
      }
    },
  );
}
