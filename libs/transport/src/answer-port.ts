import { DEFAULT_CALL_TIMEOUT_MS } from './service-call';
import type { ServiceHandlers } from './service-handlers';
import { methodsOf, patternOf, type PortContract, type PortIo, type PortReply } from './port-contract';

/**
 * Registers `impl` (the port's in-process implementation) to answer the port's calls: one handler per
 * method, under the contract's service and `<port>.<method>`. A handler decodes the argument array, calls the
 * method, and replies with its encoded result; a `DomainError` crosses as one, a failure the contract encodes
 * as data, anything else as a bare 500 (reported by the registry).
 */
export function answerPort<T>(
  handlers: ServiceHandlers,
  contract: PortContract<T>,
  impl: T,
  io: PortIo = {},
): void {
  for (const [method, wire] of methodsOf(contract)) {
    const pattern = patternOf(contract as PortContract<unknown>, method);
    const target = (impl as Record<string, (...args: unknown[]) => Promise<unknown>>)[method];
    if (typeof target !== 'function') {
      throw new Error(
        `answerPort: the implementation of ${contract.service}.${contract.port} lacks ${method}`,
      );
    }
    handlers.register(contract.service, pattern, async (payload: unknown): Promise<PortReply> => {
      if (!Array.isArray(payload)) {
        throw new Error(`${contract.service}.${pattern}: the arguments are not an array`);
      }
      // The caller stops waiting at its timeout: work that honours a signal stops then too.
      const signal = AbortSignal.timeout(wire.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
      const args = wire.decodeArgs ? wire.decodeArgs(payload, signal) : payload;
      let result: unknown;
      try {
        result = await target.apply(impl, args);
      } catch (error) {
        const failure = wire.encodeFailure?.(error);
        if (failure === undefined) throw error;
        return { failure };
      }
      return { result: wire.encodeResult ? await wire.encodeResult(result, io) : result };
    });
  }
}
