import type { OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
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
  /** Where each called service listens, e.g. `{ billing: { host: 'billing', port: 4010 } }`. */
  readonly services: Readonly<Record<string, ServiceAddress>>;
  readonly timeoutMs?: number;
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

/**
 * The distributed adapter: NestJS microservices over TCP, one client per called service. A client connects
 * on its first call and again on the first call after the connection dropped (the peer restarted), so a
 * peer that is down fails calls fast as `unreachable` and is used again as soon as it is back.
 */
export class TcpServiceCall implements ServiceCall, OnApplicationShutdown {
  private readonly clients = new Map<string, ClientProxy>();

  constructor(private readonly options: TcpServiceCallOptions) {}

  async call<P, R>(service: string, pattern: string, payload: P, options?: CallOptions): Promise<R> {
    assertJsonSafe(payload, `the payload of ${service}.${pattern}`);
    const client = this.clientFor(service, pattern);
    const timeoutMs = options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    let reply: unknown;
    try {
      const request: CallRequest = { service, pattern, payload };
      reply = await firstValueFrom(client.send(SERVICE_CALL_PATTERN, request).pipe(timeout(timeoutMs)));
    } catch (error) {
      const failure = failureOf(error, service, pattern);
      // The client keeps a failed connection attempt until its socket's late 'close' event: start afresh.
      if (failure instanceof ServiceUnavailableError && failure.reason === 'unreachable') {
        this.drop(service, client);
      }
      throw failure;
    }
    return readReply<R>(reply, service, pattern);
  }

  private clientFor(service: string, pattern: string): ClientProxy {
    let client = this.clients.get(service);
    if (!client) {
      if (!Object.hasOwn(this.options.services, service)) {
        throw new UnknownServiceCallError(service, pattern, 'no address is configured for the service');
      }
      const { host, port } = this.options.services[service]!;
      client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port } });
      this.clients.set(service, client);
    }
    return client;
  }

  private drop(service: string, client: ClientProxy): void {
    if (this.clients.get(service) !== client) return;
    this.clients.delete(service);
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
