import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import {
  ApiOperation,
  CONSOLE_SECURITY,
  NoQuery,
  QueryPipe,
  envelopeResponse,
  errorResponses,
} from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { GetBalanceUseCase } from '../use-cases/get-balance.use-case';
import { BalanceResult } from './billing.dto';

/** The web console's view of billing (the edge has verified the console session). Delegates only. */
@Controller('console/v1')
export class ConsoleBalanceController {
  constructor(private readonly balance: GetBalanceUseCase) {}

  /** GET /console/v1/balance: the signed-in account's balance, as `/api/v1/chat/credit` shows it. */
  @Get('balance')
  @ApiOperation({
    tags: ['console'],
    summary:
      "The signed-in account's balance: net available, held, total and funding sources (wallet, promotional credit, model-scoped grants with their expiry).",
    description:
      'The shape of `GET /api/v1/chat/credit`. Amounts are exact USD decimal strings. `Cache-Control: no-store`.',
    security: CONSOLE_SECURITY,
    responses: {
      ...envelopeResponse('Balance.', BalanceResult),
      ...errorResponses([400, 401, 500]),
    },
  })
  @Header('cache-control', 'no-store')
  read(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.balance.execute(request.edge!.console!.accountId);
  }
}
