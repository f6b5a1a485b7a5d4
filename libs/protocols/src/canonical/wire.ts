import { ProtocolError } from './text-input';

/**
 * What every protocol's request mapper reads requests with and refuses them with: one definition, so the four
 * protocols cannot drift in how a missing, malformed or unsupported field is answered.
 */

/** A JSON object of the wire request, read field by field. */
export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 400 `unsupported_parameter` naming the client's field (a dot path). */
export function unsupported(param: string): ProtocolError {
  return new ProtocolError(400, 'unsupported_parameter', 'compat.unsupported_parameter', { param }, param);
}

/** 400 `unsupported_parameter` for an item, part, block or tool whose `type` this service does not accept. */
export function unsupportedType(param: string, type: unknown): ProtocolError {
  return new ProtocolError(
    400,
    'unsupported_parameter',
    'compat.unsupported_type',
    { param, type: typeof type === 'string' ? type : String(JSON.stringify(type)) },
    param,
  );
}

/** 400 `invalid_request`: a required field is absent. */
export function missing(field: string): ProtocolError {
  return new ProtocolError(400, 'invalid_request', 'request.missing_field', { field }, field);
}

/** 400 `invalid_request`: a field whose shape the mapper must read is malformed. */
export function invalid(field: string): ProtocolError {
  return new ProtocolError(400, 'invalid_request', 'request.invalid_field', { field }, field);
}

/** One SSE frame with its `event:` line, as Anthropic and OpenAI's Responses stream write them. */
export function sseFrame(event: string, data: Json): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
