import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { NoQuery, QueryPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { GetBalanceUseCase } from '../use-cases/get-balance.use-case';

/** The web console's view of billing (the edge has verified the console session). Delegates only. */
@Controller('console/v1')
export class ConsoleBalanceController {
  constructor(private readonly balance: GetBalanceUseCase) {}

  /** GET /console/v1/balance: the signed-in account's balance, as `/api/v1/chat/credit` shows it. */
  @Get('balance')
  @Header('cache-control', 'no-store')
  read(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.balance.execute(request.edge!.console!.accountId);
  }
}
