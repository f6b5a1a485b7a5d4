/** Answers one kind of call. Payload and result are JSON-safe (see `ServiceCall`). */
export type ServiceHandler<P = unknown, R = unknown> = (payload: P) => Promise<R>;

/** Told about a handler's unexpected failure (the caller only gets a generic 500), e.g. to log it. */
export type UnexpectedErrorReporter = (error: unknown, call: { service: string; pattern: string }) => void;

/**
 * The calls a process answers, by service and pattern. One registry serves both transports: the direct
 * adapter calls it in process, the TCP controller on behalf of remote callers.
 */
export class ServiceHandlers {
  private readonly byService = new Map<string, Map<string, ServiceHandler>>();

  constructor(readonly reportUnexpected: UnexpectedErrorReporter = () => undefined) {}

  register<P, R>(service: string, pattern: string, handler: ServiceHandler<P, R>): void {
    let patterns = this.byService.get(service);
    if (!patterns) {
      patterns = new Map();
      this.byService.set(service, patterns);
    }
    if (patterns.has(pattern)) throw new Error(`service call ${service}.${pattern} is already registered`);
    // The payload is whatever the caller sent: the handler's own contract says what it accepts.
    patterns.set(pattern, handler as ServiceHandler);
  }

  find(service: string, pattern: string): ServiceHandler | undefined {
    return this.byService.get(service)?.get(pattern);
  }
}
