import {
  Inject,
  Injectable,
  Optional,
  SetMetadata,
  UseInterceptors,
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { applyRateDecision } from './install-edge';
import {
  MemoryRateLimitStore,
  RATE_LIMIT_STORE,
  type RateLimitStore,
  type TokenBucketPolicy,
} from './rate-limit';

/** A route's own token bucket, beside the edge's per-key one: its policy and the bucket a request draws on. */
export interface RouteRateLimit {
  readonly policy: TokenBucketPolicy;
  /** The bucket's key, e.g. `usage:<accountId>`; the request has passed the edge (principal set). */
  readonly bucketOf: (request: FastifyRequest) => string;
}

const ROUTE_RATE_LIMIT = Symbol('RouteRateLimit');

/**
 * Takes a token of the route's bucket before the handler runs: `X-RateLimit-*` on every answer, 429 with
 * `Retry-After` when the bucket is empty (and a failing store fails the request: closed). The controller
 * keeps to delegating.
 */
@Injectable()
export class RouteRateLimitInterceptor implements NestInterceptor {
  private readonly store: RateLimitStore;

  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(RATE_LIMIT_STORE) store?: RateLimitStore,
  ) {
    this.store = store ?? new MemoryRateLimitStore();
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const limit = this.reflector.get<RouteRateLimit | undefined>(ROUTE_RATE_LIMIT, context.getHandler());
    if (limit) {
      const http = context.switchToHttp();
      const decision = await this.store.take(
        limit.bucketOf(http.getRequest<FastifyRequest>()),
        limit.policy,
        Date.now(),
      );
      applyRateDecision(decision, http.getResponse<FastifyReply>());
    }
    return next.handle();
  }
}

/** Limits a route by its own bucket (see RouteRateLimitInterceptor). */
export const RateLimited = (limit: RouteRateLimit): MethodDecorator =>
  applyDecorators(SetMetadata(ROUTE_RATE_LIMIT, limit), UseInterceptors(RouteRateLimitInterceptor));
