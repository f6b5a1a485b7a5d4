import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { parseUsd } from '@gen/core';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { CreateApiKeyUseCase } from '../use-cases/create-api-key.use-case';
import { ListConsoleKeysUseCase } from '../use-cases/list-console-keys.use-case';
import { ManageApiKeyUseCase } from '../use-cases/manage-api-key.use-case';
import { RotateSigningSecretUseCase } from '../use-cases/rotate-signing-secret.use-case';
import { UpdateApiKeyUseCase } from '../use-cases/update-api-key.use-case';
import { CreatedKeyResult, RevokedKeyResult, SecretResult } from './admin.dto';
import {
  ConsoleCreateKeyBody,
  ConsoleKeyIdParam,
  ConsoleKeyListResult,
  ConsoleKeyResult,
  ConsoleUpdateKeyBody,
} from './console.dto';
import { CSRF, consoleOp } from './operation-docs';

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
  @ApiOperation(
    consoleOp(
      "The account's API keys (never their secrets), with today's spend against each daily cap.",
      ConsoleKeyListResult,
      { errors: [400, 401, 500] },
    ),
  )
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(NoQuery)) _query: NoQuery) {
    return this.listKeys.execute(accountOf(request));
  }

  /** The answer shows the whole key once. */
  @Post('keys')
  @ApiOperation(
    consoleOp('Create an API key; the answer shows the whole key once.', CreatedKeyResult, {
      errors: [400, 401, 403, 413, 500],
      description: `Without dailyCap the key gets the low default cap. ${CSRF}`,
    }),
  )
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
  @ApiOperation(
    consoleOp('Rename a key or set its daily cap (null clears it).', ConsoleKeyResult, {
      description: `Another account's key is 404. ${CSRF}`,
    }),
  )
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
  @ApiOperation(
    consoleOp('Revoke a key; every process refuses it within one second.', RevokedKeyResult, {
      errors: [400, 401, 403, 404, 500],
      description: `Another account's key is 404. ${CSRF}`,
    }),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  revoke(@Req() request: FastifyRequest, @Param('keyId', keyIdOf) keyId: string) {
    return this.apiKeys.revoke(keyId, accountOf(request));
  }

  /** The new secret is shown once; deliveries still being retried are signed with it at once. */
  @Post('signing-secret/rotate')
  @ApiOperation(
    consoleOp(
      'Generate or rotate the callback signing secret; shown once, effective at once.',
      SecretResult,
      {
        errors: [401, 403, 500],
        description: CSRF,
      },
    ),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  rotateSigningSecret(@Req() request: FastifyRequest) {
    return this.signingSecret.execute(accountOf(request));
  }
}
