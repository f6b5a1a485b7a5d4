import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { APP_CONFIG, parseUsd, type AppConfig } from '@gen/core';
import { ApiOperation, NoQuery, QueryPipe, SchemaPipe, requestBaseUrl } from '@gen/edge';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ConsoleSessionsUseCase } from '../use-cases/console-sessions.use-case';
import { CreateConsoleLinkUseCase } from '../use-cases/create-console-link.use-case';
import { CreateAccountUseCase } from '../use-cases/create-account.use-case';
import { CreateApiKeyUseCase } from '../use-cases/create-api-key.use-case';
import { GetAccountUseCase } from '../use-cases/get-account.use-case';
import { ManageApiKeyUseCase } from '../use-cases/manage-api-key.use-case';
import { ManageGroupsUseCase } from '../use-cases/manage-groups.use-case';
import { RotateSigningSecretUseCase } from '../use-cases/rotate-signing-secret.use-case';
import { UpdateAccountUseCase } from '../use-cases/update-account.use-case';
import {
  AccountIdParam,
  AccountIdResult,
  AccountResult,
  ConsoleTokenResult,
  CreateAccountBody,
  CreatedKeyResult,
  CreateKeyBody,
  GroupName,
  GroupResult,
  KeyReferenceParam,
  KeyResult,
  PutGroupBody,
  RevokedKeyResult,
  SecretResult,
  UpdateAccountBody,
  UpdateKeyBody,
} from './admin.dto';
import { ConsoleLinkResult } from './console.dto';
import { adminOp } from './operation-docs';

/** The route parameters, checked by their pattern before any query (else 400 naming them). */
const accountIdOf = new SchemaPipe(AccountIdParam, 'accountId');
const keyRefOf = new SchemaPipe(KeyReferenceParam, 'keyId');
const noQuery = new QueryPipe(NoQuery);
/** Words of the `keyId` path parameter (its schema is the pipe's). */
const KEY_ID_WORDS = [{ name: 'keyId', in: 'path', description: 'Key id (`key_...`) or the whole key.' }];

/** `/admin/v1`: the console's operations for operators (the edge checks the admin token). Delegates only. */
@Controller('admin/v1')
export class AdminAccountsController {
  constructor(
    private readonly createAccount: CreateAccountUseCase,
    private readonly updateAccount: UpdateAccountUseCase,
    private readonly getAccount: GetAccountUseCase,
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly apiKeys: ManageApiKeyUseCase,
    private readonly signingSecret: RotateSigningSecretUseCase,
    private readonly consoleSessions: ConsoleSessionsUseCase,
    private readonly groups: ManageGroupsUseCase,
    private readonly consoleLinks: CreateConsoleLinkUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('accounts')
  @ApiOperation(
    adminOp(
      'Create an account (optionally with opening wallet credit, group and API error language).',
      AccountIdResult,
    ),
  )
  @HttpCode(200)
  create(@Body(new SchemaPipe(CreateAccountBody)) body: CreateAccountBody) {
    return this.createAccount.execute({
      name: body.name,
      group: body.group,
      language: body.language,
      creditE9: body.credit === undefined ? undefined : parseUsd(body.credit)!,
    });
  }

  @Get('accounts/:accountId')
  @ApiOperation(adminOp('Read an account.', AccountResult, [400, 401, 404, 500]))
  read(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return this.getAccount.execute(accountId);
  }

  @Patch('accounts/:accountId')
  @ApiOperation(adminOp('Change the API error language (null clears it) or the group.', AccountIdResult))
  update(
    @Param('accountId', accountIdOf) accountId: string,
    @Body(new SchemaPipe(UpdateAccountBody)) body: UpdateAccountBody,
  ) {
    return this.updateAccount.execute({ accountId, language: body.language, group: body.group });
  }

  @Post('accounts/:accountId/keys')
  @ApiOperation(
    adminOp('Create an API key; the key is returned once, only its hash is kept.', CreatedKeyResult),
  )
  @HttpCode(200)
  createKey(
    @Param('accountId', accountIdOf) accountId: string,
    @Body(new SchemaPipe(CreateKeyBody)) body: CreateKeyBody,
  ) {
    return this.createApiKey.execute({
      accountId,
      name: body.name,
      dailyCapE9: body.dailyCap === undefined ? undefined : parseUsd(body.dailyCap)!,
    });
  }

  @Get('accounts/:accountId/keys')
  @ApiOperation(
    adminOp(
      "List the account's keys (never their secrets).",
      Type.Object({ items: Type.Array(KeyResult) }),
      [400, 401, 404, 500],
    ),
  )
  async listKeys(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return { items: await this.apiKeys.list(accountId) };
  }

  @Patch('keys/:keyId')
  @ApiOperation({ ...adminOp("Set a key's daily spend cap (USD).", KeyResult), parameters: KEY_ID_WORDS })
  updateKey(
    @Param('keyId', keyRefOf) keyId: string,
    @Body(new SchemaPipe(UpdateKeyBody)) body: UpdateKeyBody,
  ) {
    return this.apiKeys.setDailyCap(keyId, parseUsd(body.dailyCap)!);
  }

  @Post('keys/:keyId/revoke')
  @ApiOperation({
    ...adminOp(
      'Revoke a key; every process refuses it within one second.',
      RevokedKeyResult,
      [400, 401, 404, 500],
    ),
    parameters: KEY_ID_WORDS,
  })
  @HttpCode(200)
  revokeKey(@Param('keyId', keyRefOf) keyId: string) {
    return this.apiKeys.revoke(keyId);
  }

  @Post('accounts/:accountId/signing-secret/rotate')
  @ApiOperation(
    adminOp(
      'Generate or rotate the callback signing secret; shown once, effective at once.',
      SecretResult,
      [400, 401, 404, 500],
    ),
  )
  @HttpCode(200)
  rotateSigningSecret(@Param('accountId', accountIdOf) accountId: string) {
    return this.signingSecret.execute(accountId);
  }

  @Post('accounts/:accountId/console-tokens')
  @ApiOperation(
    adminOp(
      'Create a console session token (12 hours) for /console/v1.',
      ConsoleTokenResult,
      [400, 401, 404, 500],
    ),
  )
  @HttpCode(200)
  createConsoleToken(@Param('accountId', accountIdOf) accountId: string) {
    return this.consoleSessions.create(accountId);
  }

  /** A one-time sign-in link to the web console: PUBLIC_BASE_URL, else the origin this request came to. */
  @Post('accounts/:accountId/console-links')
  @ApiOperation(
    adminOp(
      'Create a one-time sign-in link to the web console (ten minutes; only its hash is kept).',
      ConsoleLinkResult,
      [400, 401, 404, 500],
    ),
  )
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  createConsoleLink(@Req() request: FastifyRequest, @Param('accountId', accountIdOf) accountId: string) {
    return this.consoleLinks.execute(accountId, this.config.PUBLIC_BASE_URL || requestBaseUrl(request));
  }

  @Get('groups')
  @ApiOperation(
    adminOp(
      'List account groups and their price multipliers.',
      Type.Object({ items: Type.Array(GroupResult) }),
      [400, 401, 500],
    ),
  )
  async listGroups(@Query(noQuery) _query: NoQuery) {
    return { items: await this.groups.list() };
  }

  @Put('groups/:name')
  @ApiOperation(
    adminOp(
      "Create or change a group's price multiplier (0.01 to 100, at most 4 decimal places).",
      GroupResult,
    ),
  )
  putGroup(
    @Param('name', new SchemaPipe(GroupName, 'name')) name: string,
    @Body(new SchemaPipe(PutGroupBody)) body: PutGroupBody,
  ) {
    return this.groups.put(name, body.multiplier);
  }
}
