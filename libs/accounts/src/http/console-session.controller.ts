import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CONSOLE_SESSION_COOKIE } from '@gen/contracts';
import { NoQuery, QueryPipe, RateLimited, SchemaPipe, cookieValue, isSecureRequest } from '@gen/edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenOf } from '../domain/credentials';
import { SignInConsoleUseCase } from '../use-cases/sign-in-console.use-case';
import { SignOutConsoleUseCase } from '../use-cases/sign-out-console.use-case';
import { clearedSessionCookie, sessionCookie } from './console-cookie';
import { SignInBody } from './console.dto';

/** Sign-in attempts per source address: a burst of 30, then 30 a minute. */
export const SIGN_IN_POLICY = { burst: 30, refillPerMinute: 30 } as const;

/** `/console/v1` sign-in, session and sign-out (the edge verifies the session; sign-in needs none). */
@Controller('console/v1')
export class ConsoleSessionController {
  constructor(
    private readonly signIn: SignInConsoleUseCase,
    private readonly signOut: SignOutConsoleUseCase,
  ) {}

  /** POST /console/v1/sign-in: a link's token, once, for the session cookie and the CSRF token. */
  @Post('sign-in')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RateLimited({ policy: SIGN_IN_POLICY, bucketOf: (request) => `console-sign-in-ip:${request.ip}` })
  async enter(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new SchemaPipe(SignInBody)) body: SignInBody,
  ) {
    const { sessionToken, ...session } = await this.signIn.execute(body.token);
    void reply.header('set-cookie', sessionCookie(sessionToken, session.expiresAt, isSecureRequest(request)));
    return session;
  }

  /** GET /console/v1/session: who is signed in; a cookie session also gets its CSRF token again. */
  @Get('session')
  @Header('cache-control', 'no-store')
  session(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    const session = request.edge!.console!;
    const cookie = session.via === 'cookie' ? cookieValue(request, CONSOLE_SESSION_COOKIE) : null;
    return {
      accountId: session.accountId,
      language: session.language,
      expiresAt: session.expiresAt,
      ...(cookie !== null ? { csrfToken: csrfTokenOf(cookie) } : {}),
    };
  }

  /** POST /console/v1/sign-out: revokes the session and clears the cookie. */
  @Post('sign-out')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async leave(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await this.signOut.execute(request.edge!.console!);
    void reply.header('set-cookie', clearedSessionCookie(isSecureRequest(request)));
    return result;
  }
}
