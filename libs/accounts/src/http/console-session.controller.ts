import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CONSOLE_SESSION_COOKIE } from '@gen/contracts';
import {
  ApiOperation,
  NoQuery,
  QueryPipe,
  RateLimited,
  SchemaPipe,
  cookieValue,
  isSecureRequest,
} from '@gen/edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenOf } from '../domain/credentials';
import { SignInConsoleUseCase } from '../use-cases/sign-in-console.use-case';
import { SignOutConsoleUseCase } from '../use-cases/sign-out-console.use-case';
import { clearedSessionCookie, sessionCookie } from './console-cookie';
import { SessionResult, SignedOutResult, SignInBody, SignInResult } from './console.dto';
import { CSRF, consoleOp, withCookie } from './operation-docs';

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
  @ApiOperation(
    withCookie(
      consoleOp('Sign in to the web console with a one-time link token.', SignInResult, {
        security: [],
        errors: [400, 401, 413, 429, 500],
        description: `No credential. The token is the \`#token=\` fragment of the link that \`POST /admin/v1/accounts/{accountId}/console-links\` (CLI \`console-link\`) made; it works once, within ten minutes: a second use, an expired or an unknown token is 401 and creates nothing. The answer sets the session cookie (12 hours) and gives the CSRF token. ${SIGN_IN_POLICY.burst} attempts per source address, refilling ${SIGN_IN_POLICY.refillPerMinute} a minute (429).`,
      }),
      {
        'X-RateLimit-Limit': { schema: { type: 'string' } },
        'X-RateLimit-Remaining': { schema: { type: 'string' } },
      },
    ),
  )
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
  @ApiOperation(
    consoleOp('The signed-in account and its session.', SessionResult, {
      errors: [400, 401, 500],
      description:
        'Our addition: lets a console confirm its credential. For the cookie it also gives the CSRF token again (a reloaded page).',
    }),
  )
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
  @ApiOperation(
    withCookie(
      consoleOp('Sign out: the session is revoked and the cookie cleared (`Max-Age=0`).', SignedOutResult, {
        errors: [401, 403, 500],
        description: CSRF,
      }),
    ),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async leave(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await this.signOut.execute(request.edge!.console!);
    void reply.header('set-cookie', clearedSessionCookie(isSecureRequest(request)));
    return result;
  }
}
