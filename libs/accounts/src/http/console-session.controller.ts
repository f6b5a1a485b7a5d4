import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { NoQuery, QueryPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';

/** `/console/v1/session`: who a console session token belongs to (the edge has verified it). */
@Controller('console/v1')
export class ConsoleSessionController {
  @Get('session')
  @Header('cache-control', 'no-store')
  session(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    const session = request.edge!.console!;
    return { accountId: session.accountId, language: session.language };
  }
}
