import { answerCall } from './answer-call';
import { jsonRoundTrip } from './json-safe';
import { readReply } from './read-reply';
import { DEFAULT_CALL_TIMEOUT_MS, type CallOptions, type ServiceCall } from './service-call';
import { ServiceUnavailableError } from './service-call.errors';
import type { ServiceHandlers } from './service-handlers';

export interface DirectServiceCallOptions {
  readonly timeoutMs?: number;
}

/**
 * The embedded adapter: calls the handler registered in this process, but as the wire would. Payload and
 * reply go through JSON (copies, no class instances, refused when not JSON-safe), errors are mapped as they
 * are over TCP, and an answer later than the timeout is not waited for.
 */
export class DirectServiceCall implements ServiceCall {
  constructor(
    private readonly handlers: ServiceHandlers,
    private readonly options: DirectServiceCallOptions = {},
  ) {}

  async call<P, R>(service: string, pattern: string, payload: P, options?: CallOptions): Promise<R> {
    const request = {
      service,
      pattern,
      payload: jsonRoundTrip(payload, `the payload of ${service}.${pattern}`),
    };
    const timeoutMs = options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailableError(service, pattern, 'timeout')), timeoutMs);
    });
    try {
      const reply = await Promise.race([answerCall(this.handlers, request), expired]);
      return readReply<R>(jsonRoundTrip(reply, 'a service call reply'), service, pattern);
    } finally {
      clearTimeout(timer);
    }
  }
}
