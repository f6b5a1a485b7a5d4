import { internalCallError } from './service-call.errors';
import type { ServiceCall } from './service-call';
import { methodsOf, patternOf, type PortContract, type PortIo } from './port-contract';

export interface RemotePortOptions {
  /** Replaces every method's own timeout (tests). */
  readonly timeoutMs?: number;
  readonly io?: PortIo;
}

/** Rejects with the signal's reason as soon as it aborts; the call itself is left to end on its own. */
function untilAborted<R>(pending: Promise<R>, signal: AbortSignal): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Drops trailing `undefined` arguments (optional ones not given), which a JSON array would make null. */
function trimmed(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end -= 1;
  return end === args.length ? args : args.slice(0, end);
}

/**
 * The port `T` answered by another process: every method calls `<port>.<method>` of the contract's service
 * through `call`, with the arguments as a JSON array, and returns the decoded result. Failures arrive as the
 * transport gives them: the callee's `DomainError`, `ServiceUnavailableError` (50301: `unreachable`,
 * `timeout`, `connection_lost`), or the port's own failure its contract decodes.
 */
export function remotePort<T>(
  call: ServiceCall,
  contract: PortContract<T>,
  options: RemotePortOptions = {},
): T {
  const io = options.io ?? {};
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [method, wire] of methodsOf(contract)) {
    const pattern = patternOf(contract as PortContract<unknown>, method);
    const timeoutMs = options.timeoutMs ?? wire.timeoutMs;
    port[method] = async (...args: unknown[]): Promise<unknown> => {
      const signal = wire.signalOf?.(args);
      signal?.throwIfAborted();
      const payload = trimmed(wire.encodeArgs ? await wire.encodeArgs(args, io) : args);
      const pending = call.call<unknown[], unknown>(
        contract.service,
        pattern,
        payload,
        timeoutMs === undefined ? undefined : { timeoutMs },
      );
      const reply = signal ? await untilAborted(pending, signal) : await pending;
      if (typeof reply !== 'object' || reply === null) throw internalCallError();
      if ('failure' in reply) {
        if (!wire.decodeFailure) throw internalCallError();
        throw wire.decodeFailure(reply.failure);
      }
      const result = (reply as { result?: unknown }).result;
      return wire.decodeResult ? wire.decodeResult(result, io) : result;
    };
  }
  return port as T;
}
