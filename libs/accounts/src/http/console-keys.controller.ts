import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { parseUsd } from '@gen/core';
import { NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CreateApiKeyUseCase } from '../use-cases/create-api-key.use-case';
import { ListConsoleKeysUseCase } from '../use-cases/list-console-keys.use-case';
import { ManageApiKeyUseCase } from '../use-cases/manage-api-key.use-case';
import { RotateSigningSecretUseCase } from '../use-cases/rotate-signing-secret.use-case';
import { UpdateApiKeyUseCase } from '../use-cases/update-api-key.use-case';
import { ConsoleCreateKeyBody, ConsoleKeyIdParam, ConsoleUpdateKeyBody } from './console.dto';

const accountOf = (request: FastifyRequest): string => request.edge!.console!.accountId;
const keyIdOf = new SchemaPipe(ConsoleKeyIdParam, 'keyId');

/**
 * The signed-in account's API keys and callback signing secret (`/console/v1`, console session). Every
 * operation is scoped to the session's account: another account's key is 404. Delegates only.
 */
@Controller('console/v1')
export class ConsoleKeysController {
  constructor(
    private readonly listKeys: ListConsoleKeysUseCase,
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly updateApiKey: UpdateApiKeyUseCase,
    private readonly apiKeys: ManageApiKeyUseCase,
    private readonly signingSecret: RotateSigningSecretUseCase,
  ) {}

  @Get('keys')
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.listKeys.execute(accountOf(request));
  }

  /** The answer shows the whole key once. */
  @Post('keys')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  create(
    @Req() request: FastifyRequest,
    @Body(new SchemaPipe(ConsoleCreateKeyBody)) body: ConsoleCreateKeyBody,
  ) {
    return this.createApiKey.execute({
      accountId: accountOf(request),
      name: body.name,
      dailyCapE9: body.dailyCap === undefined ? undefined : parseUsd(body.dailyCap)!,
    });
  }

  @Patch('keys/:keyId')
  @Header('cache-control', 'no-store')
  update(
    @Req() request: FastifyRequest,
    @Param('keyId', keyIdOf) keyId: string,
    @Body(new SchemaPipe(ConsoleUpdateKeyBody)) body: ConsoleUpdateKeyBody,
  ) {
    return this.updateApiKey.execute({
      accountId: accountOf(request),
      keyId,
      name: body.name,
      dailyCapE9:
        body.dailyCap === undefined ? undefined : body.dailyCap === null ? null : parseUsd(body.dailyCap)!,
    });
  }

  @Post('keys/:keyId/revoke')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  revoke(@Req() request: FastifyRequest, @Param('keyId', keyIdOf) keyId: string) {
    return this.apiKeys.revoke(keyId, accountOf(request));
  }

  /** The new secret is shown once; deliveries still being retried are signed with it at once. */
  @Post('signing-secret/rotate')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  rotateSigningSecret(@Req() request: FastifyRequest) {
    return this.signingSecret.execute(accountOf(request));
  }
}
