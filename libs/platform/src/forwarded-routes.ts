import { Injectable, type OnModuleInit, type Provider } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { FORWARDED_ROUTES, type FleetApp } from '@gen/contracts';
import { markForwarded } from '@gen/edge';
import {
  isHttpForwardContract,
  ownerOf,
  type ForwardedRequest,
  type ForwardedResponse,
  type HttpForwardPort,
  type PortContract,
} from '@gen/transport';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

/** Headers of one connection, not of the message: each hop sets its own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'proxy-connection',
  'te',
  'trailer',
  'date',
]);

function messageHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

const fastifyOf = (host: HttpAdapterHost): FastifyInstance | undefined => {
  const instance = host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
  return instance && typeof instance.inject === 'function' ? instance : undefined;
};

/**
 * The owner's side of `http.forward`: the request is served by this app's own HTTP server (Fastify's
 * `inject`, no socket), with everything its edge does: credentials, validation, the envelope, errors.
 */
@Injectable()
export class InjectedHttpForward implements HttpForwardPort {
  constructor(private readonly host: HttpAdapterHost) {}

  async forward(request: ForwardedRequest): Promise<ForwardedResponse> {
    const fastify = fastifyOf(this.host);
    if (!fastify) throw new Error('this app serves no HTTP');
    const response = await fastify.inject({
      method: request.method as HTTPMethods,
      url: request.url,
      // Marked, so that the edge here does not take the per-address tokens the receiving app already took.
      headers: markForwarded(request.headers),
      ...(request.body !== undefined ? { payload: Buffer.from(request.body, 'base64') } : {}),
    });
    return {
      status: response.statusCode,
      headers: messageHeaders(response.headers),
      body: response.rawPayload.toString('base64'),
    };
  }
}

/** The forward ports this app answers: each implemented by its own HTTP server. */
export function forwardAnswerProviders(answers: readonly PortContract<unknown>[]): Provider[] {
  return answers
    .filter((contract) => isHttpForwardContract(contract))
    .map((contract) => ({ provide: contract.token, useClass: InjectedHttpForward }));
}

// HEAD comes with GET (Fastify's own HEAD routes).
const FORWARDED_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The body of a request as it arrived, for the owner to parse again (only JSON reaches a forwarded route). */
function bodyOf(request: FastifyRequest): string | undefined {
  if (request.body === undefined || request.body === null) return undefined;
  const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  return Buffer.from(raw).toString('base64');
}

/**
 * The caller's side: for each forward port this app calls, the routes of `FORWARDED_ROUTES` its owner serves,
 * each answered by the owner. The edge's hooks run here as on any route (request id, drain, credentials, rate
 * limit) and again at the owner, which renders the answer, but for the per-address buckets, whose tokens this
 * app took for the client's address (the owner sees its injection); a failure to reach it is this app's 503 (50301).
 */
@Injectable()
export class ForwardedRoutesInstaller implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly modules: ModuleRef,
    private readonly calls: readonly PortContract<unknown>[],
  ) {}

  onModuleInit(): void {
    const fastify = fastifyOf(this.host);
    if (!fastify) return;
    for (const contract of this.calls) {
      if (!isHttpForwardContract(contract)) continue;
      const owner: FleetApp | undefined = ownerOf(contract.service);
      const port = this.modules.get<HttpForwardPort>(contract.token, { strict: false });
      for (const route of FORWARDED_ROUTES) {
        if (route.app !== owner) continue;
        fastify.route({
          method: FORWARDED_METHODS,
          url: route.path,
          handler: async (request: FastifyRequest, reply: FastifyReply) => {
            const body = bodyOf(request);
            const answer = await port.forward({
              method: request.method,
              url: request.url,
              headers: messageHeaders(request.headers),
              ...(body !== undefined ? { body } : {}),
            });
            return reply.code(answer.status).headers(answer.headers).send(Buffer.from(answer.body, 'base64'));
          },
        });
      }
    }
  }
}
