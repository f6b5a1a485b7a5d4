import type { OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { SpanKind, carrierOf, inSpan } from '@gen/observability';
import { SERVICE_CALL_PATTERN, type CallRequest } from './call-wire';
import { assertJsonSafe } from './json-safe';
import { readReply } from './read-reply';
import { DEFAULT_CALL_TIMEOUT_MS, type CallOptions, type ServiceCall } from './service-call';
import { ServiceUnavailableError, UnknownServiceCallError, internalCallError } from './service-call.errors';

export interface ServiceAddress {
  readonly host: string;
  readonly port: number;
}

export interface TcpServiceCallOptions {
  /**
   * Where each called service listens, e.g. `{ billing: { host: 'billing', port: 4000 } }`; a list for a
   * service with replicas: calls take them in turn.
   */
  readonly services: Readonly<Record<string, ServiceAddress | readonly ServiceAddress[]>>;
  readonly timeoutMs?: number;
  /**
   * While the process starts (until `started()`), a call whose peers are all unreachable (nothing was sent)
   * is tried again for up to this long, so that apps started together wait for each other rather than fail.
   * 0 (the default): never.
   */
  readonly startupRetryMs?: number;
}

/** The transport's failure as the caller should meet it. */
function failureOf(error: unknown, service: string, pattern: string): Error {
  if (error instanceof TimeoutError) return new ServiceUnavailableError(service, pattern, 'timeout');
  if (typeof error === 'string' && /no matching message handler/i.test(error)) {
    return new UnknownServiceCallError(service, pattern, 'the peer does not answer service calls');
  }
  // Fields, not `instanceof Error`: Node's errors may come from another realm (Jest's VM contexts).
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  // Connecting failed (ECONNREFUSED, EHOSTUNREACH, ENOTFOUND...): nothing was sent.
  if (fields['syscall'] === 'connect' || fields['syscall'] === 'getaddrinfo') {
    return new ServiceUnavailableError(service, pattern, 'unreachable');
  }
  // The connection ended, or failed otherwise, with the call on it: it may have run.
  if (fields['message'] === 'Connection closed' || typeof fields['code'] === 'string') {
    return new ServiceUnavailableError(service, pattern, 'connection_lost');
  }
  return internalCallError();
}

const unreachable = (error: unknown): boolean =>
  error instanceof ServiceUnavailableError && error.reason === 'unreachable';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The addresses of one service and whose turn is next. */
interface Replicas {
  readonly addresses: readonly ServiceAddress[];
  next: number;
}

/**
 * The distributed adapter: NestJS microservices over TCP, one client per peer address. A client connects on
 * its first call and again on the first call after the connection dropped (the peer restarted), so a peer that
 * is down fails calls fast as `unreachable` and is used again as soon as it is back. Calls to a service with
 * replicas go to each in turn; one that is unreachable (nothing was sent, so this is safe) is skipped for the
 * next, and only when none can be reached does the call fail as `unreachable`.
 */
export class TcpServiceCall implements ServiceCall, OnApplicationShutdown {
  private readonly clients = new Map<string, ClientProxy>();
  private readonly replicas = new Map<string, Replicas>();
  private starting: boolean;

  constructor(private readonly options: TcpServiceCallOptions) {
    this.starting = (options.startupRetryMs ?? 0) > 0;
  }

  /** The process has started: from now on an unreachable peer fails calls at once. */
  started(): void {
    this.starting = false;
  }

  async call<P, R>(service: string, pattern: string, payload: P, options?: CallOptions): Promise<R> {
    assertJsonSafe(payload, `the payload of ${service}.${pattern}`);
    const replicas = this.replicasOf(service, pattern);
    // A client span per call; its context travels with the request, so the callee's span is its child.
    return inSpan(
      `call ${service}.${pattern}`,
      { kind: SpanKind.CLIENT, attributes: { 'rpc.service': service, 'rpc.method': pattern } },
      () => {
        const trace = carrierOf();
        const request: CallRequest = {
          service,
          pattern,
          payload,
          ...(Object.keys(trace).length > 0 ? { trace } : {}),
        };
        return this.callWithRetries<R>(replicas, request, options);
      },
    );
  }

  /** While the process starts, a peer that cannot be reached is tried again (100 ms doubling to 1 s). */
  private async callWithRetries<R>(
    replicas: Replicas,
    request: CallRequest,
    options: CallOptions | undefined,
  ): Promise<R> {
    const timeoutMs = options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const deadline = Date.now() + (this.options.startupRetryMs ?? 0);
    let delay = 100;
    for (;;) {
      try {
        return await this.callAny(replicas, request, timeoutMs);
      } catch (error) {
        const left = deadline - Date.now();
        if (!this.starting || !unreachable(error) || left <= 0) throw error;
        await sleep(Math.min(delay, left));
        delay = Math.min(delay * 2, 1000);
      }
    }
  }

  /** Tries each replica once, starting with the one whose turn it is, until one is reached. */
  private async callAny<R>(replicas: Replicas, request: CallRequest, timeoutMs: number): Promise<R> {
    const { addresses } = replicas;
    const first = replicas.next;
    replicas.next = (first + 1) % addresses.length;
    let failure: unknown;
    for (let i = 0; i < addresses.length; i += 1) {
      try {
        return await this.callOne<R>(addresses[(first + i) % addresses.length]!, request, timeoutMs);
      } catch (error) {
        if (!unreachable(error)) throw error;
        failure = error;
      }
    }
    throw failure;
  }

  private async callOne<R>(address: ServiceAddress, request: CallRequest, timeoutMs: number): Promise<R> {
    const { service, pattern } = request;
    const client = this.clientFor(address);
    let reply: unknown;
    try {
      reply = await firstValueFrom(client.send(SERVICE_CALL_PATTERN, request).pipe(timeout(timeoutMs)));
    } catch (error) {
      const failure = failureOf(error, service, pattern);
      // The client keeps a failed connection attempt until its socket's late 'close' event: start afresh.
      if (unreachable(failure)) this.drop(address, client);
      throw failure;
    }
    return readReply<R>(reply, service, pattern);
  }

  private replicasOf(service: string, pattern: string): Replicas {
    let replicas = this.replicas.get(service);
    if (!replicas) {
      const configured = Object.hasOwn(this.options.services, service)
        ? this.options.services[service]!
        : undefined;
      const addresses: readonly ServiceAddress[] =
        configured === undefined ? [] : 'host' in configured ? [configured] : configured;
      if (addresses.length === 0) {
        throw new UnknownServiceCallError(service, pattern, 'no address is configured for the service');
      }
      replicas = { addresses, next: 0 };
      this.replicas.set(service, replicas);
    }
    return replicas;
  }

  private clientFor({ host, port }: ServiceAddress): ClientProxy {
    const key = `${host}:${port}`;
    let client = this.clients.get(key);
    if (!client) {
      client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port } });
      this.clients.set(key, client);
    }
    return client;
  }

  private drop({ host, port }: ServiceAddress, client: ClientProxy): void {
    const key = `${host}:${port}`;
    if (this.clients.get(key) !== client) return;
    this.clients.delete(key);
    void client.close();
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map(async (client) => client.close()));
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
