import { Type, type Static } from '@sinclair/typebox';

/** The one message pattern of the TCP transport; `service` and `pattern` travel in the request. */
export const SERVICE_CALL_PATTERN = { cmd: 'service-call' } as const;

export const CallRequestSchema = Type.Object(
  {
    service: Type.String({ minLength: 1 }),
    pattern: Type.String({ minLength: 1 }),
    payload: Type.Optional(Type.Unknown()),
    /** The caller's trace context (W3C `traceparent`, `tracestate`) when tracing is on. */
    trace: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
export type CallRequest = Static<typeof CallRequestSchema>;

const CallFailureSchema = Type.Union([
  Type.Object({
    kind: Type.Literal('domain'),
    code: Type.Integer(),
    messageId: Type.String(),
    params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
    headers: Type.Record(Type.String(), Type.String()),
  }),
  Type.Object({ kind: Type.Literal('unknown_handler') }),
  Type.Object({ kind: Type.Literal('not_json_safe'), detail: Type.String() }),
  Type.Object({ kind: Type.Literal('internal') }),
]);
export type CallFailure = Static<typeof CallFailureSchema>;

/** The answer to a call, as data: a handler's failure is part of the reply, not a transport error. */
export const CallReplySchema = Type.Union([
  Type.Object({ ok: Type.Literal(true), result: Type.Optional(Type.Unknown()) }),
  Type.Object({ ok: Type.Literal(false), error: CallFailureSchema }),
]);
export type CallReply = Static<typeof CallReplySchema>;
