import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@gen/core';
import { BusinessCode } from '@gen/contracts';
import { lastValueFrom, of } from 'rxjs';
import { MemoryRateLimitStore } from './rate-limit';
import { RateLimited, RouteRateLimitInterceptor } from './rate-limit.interceptor';

class Routes {
  @RateLimited({ policy: { burst: 2, refillPerMinute: 1 }, bucketOf: (r) => `usage:${r.ip}` })
  limited(): void {}
}

function contextOf(ip: string, headers: Record<string, string>): ExecutionContext {
  const reply = { header: (name: string, value: string) => void (headers[name] = value) };
  return {
    getHandler: () => Routes.prototype.limited,
    switchToHttp: () => ({ getRequest: () => ({ ip }), getResponse: () => reply }),
  } as unknown as ExecutionContext;
}

describe('RouteRateLimitInterceptor', () => {
  it('takes a token of the route bucket before the handler, and refuses with 429 without running it', async () => {
    const interceptor = new RouteRateLimitInterceptor(new Reflector(), new MemoryRateLimitStore());
    let ran = 0;
    const next = { handle: () => ((ran += 1), of('answer')) };

    const first: Record<string, string> = {};
    expect(await lastValueFrom(await interceptor.intercept(contextOf('1.1.1.1', first), next))).toBe(
      'answer',
    );
    expect(first).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    await interceptor.intercept(contextOf('1.1.1.1', {}), next);
    expect(ran).toBe(2);

    const refused: Record<string, string> = {};
    const error = await interceptor.intercept(contextOf('1.1.1.1', refused), next).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(BusinessCode.RateLimited);
    expect(refused['x-ratelimit-remaining']).toBe('0');
    expect(ran).toBe(2);

    // Another bucket is untouched.
    const other: Record<string, string> = {};
    await interceptor.intercept(contextOf('2.2.2.2', other), next);
    expect(other['x-ratelimit-remaining']).toBe('1');
    expect(ran).toBe(3);
  });
});
