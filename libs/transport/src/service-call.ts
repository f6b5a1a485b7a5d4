export interface CallOptions {
  /** How long to wait for the answer; the adapter's default (5 s unless configured) otherwise. */
  readonly timeoutMs?: number;
}

/** How long a call waits for its answer unless the adapter or the call says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 5000;

/**
 * The synchronous service call port: ask `service` to run `pattern` with `payload` and wait for the answer.
 * Direct in process in embedded mode, NestJS microservices TCP in distributed mode; callers never know which.
 *
 * Payload and result must be JSON-safe: plain objects, arrays, strings, finite numbers, booleans and null
 * (an `undefined` property is dropped, as JSON drops it). No bigint (money is a decimal string in contracts),
 * Date, Map, class instances or cycles: both adapters refuse them with `NotJsonSafeError`, and both hand the
 * callee and the caller copies, never shared objects.
 *
 * Failures: a `DomainError` thrown by the handler arrives as an equal `DomainError` (code, message id, params,
 * headers); any other handler failure arrives as a generic `DomainError` 500 `server.error` without its
 * detail; no handler gives `UnknownServiceCallError`; no answer in time, or no peer, gives
 * `ServiceUnavailableError` (503 `server.unavailable`), whose `reason` tells whether the call may have run.
 */
export interface ServiceCall {
  call<P, R>(service: string, pattern: string, payload: P, options?: CallOptions): Promise<R>;
}
export const SERVICE_CALL = Symbol('ServiceCall');
