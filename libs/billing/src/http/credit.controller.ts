import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { formatUsd, parseUsd } from '@gen/core';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { AddCreditUseCase } from '../use-cases/add-credit.use-case';
import { GetBalanceUseCase } from '../use-cases/get-balance.use-case';
import { AccountIdParam, AddCreditBody } from './billing.dto';

@Controller()
export class CreditController {
  constructor(
    private readonly balance: GetBalanceUseCase,
    private readonly addCredit: AddCreditUseCase,
  ) {}

  /** GET /api/v1/chat/credit: the calling key's account balance. */
  @Get('api/v1/chat/credit')
  @Header('cache-control', 'no-store')
  credit(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.balance.execute(request.edge!.principal!.accountId);
  }

  @Post('admin/v1/accounts/:accountId/credits')
  @HttpCode(200)
  async add(
    @Param('accountId', new SchemaPipe(AccountIdParam, 'accountId')) accountId: string,
    @Body(new SchemaPipe(AddCreditBody)) body: AddCreditBody,
  ) {
    const { availableE9 } = await this.addCredit.addCredit({
      accountId,
      kind: body.kind ?? 'wallet',
      amountE9: parseUsd(body.amount)!,
      model: body.model,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined,
    });
    return { accountId, balance: formatUsd(availableE9) };
  }
}
