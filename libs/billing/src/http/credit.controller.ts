import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { formatUsd, parseUsd } from '@gen/core';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe, envelopeResponse, errorResponses } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { AddCreditUseCase } from '../use-cases/add-credit.use-case';
import { GetBalanceUseCase } from '../use-cases/get-balance.use-case';
import { AccountIdParam, AddCreditBody, AddCreditResult, BalanceResult } from './billing.dto';

@Controller()
export class CreditController {
  constructor(
    private readonly balance: GetBalanceUseCase,
    private readonly addCredit: AddCreditUseCase,
  ) {}

  /** GET /api/v1/chat/credit: the calling key's account balance. */
  @Get('api/v1/chat/credit')
  @ApiOperation({
    tags: ['account'],
    summary: "Balance of the calling key's account: net available, held, total and funding sources.",
    description:
      'Field names are our choice (the specification does not show them). `Cache-Control: no-store`. It takes no query parameters: any is 400.',
    responses: {
      ...envelopeResponse('Balance.', BalanceResult, { rateLimited: true }),
      ...errorResponses([400, 401, 403, 429, 500]),
    },
  })
  @Header('cache-control', 'no-store')
  credit(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.balance.execute(request.edge!.principal!.accountId);
  }

  @Post('admin/v1/accounts/:accountId/credits')
  @ApiOperation({
    tags: ['admin'],
    summary: 'Add wallet funds, promotional credit, or a model-scoped grant.',
    security: [{ adminToken: [] }],
    responses: {
      ...envelopeResponse('Credit added.', AddCreditResult),
      ...errorResponses([400, 401, 404, 413, 500]),
    },
  })
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
