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
import { NoQuery, QueryPipe, SchemaPipe, requestBaseUrl } from '@gen/edge';
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
  CreateAccountBody,
  CreateKeyBody,
  GroupName,
  KeyReferenceParam,
  PutGroupBody,
  UpdateAccountBody,
  UpdateKeyBody,
} from './admin.dto';

/** The route parameters, checked by their pattern before any query (else 400 naming them). */
const accountIdOf = new SchemaPipe(AccountIdParam, 'accountId');
const keyRefOf = new SchemaPipe(KeyReferenceParam, 'keyId');
const noQuery = new QueryPipe(NoQuery);

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
  read(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return this.getAccount.execute(accountId);
  }

  @Patch('accounts/:accountId')
  update(
    @Param('accountId', accountIdOf) accountId: string,
    @Body(new SchemaPipe(UpdateAccountBody)) body: UpdateAccountBody,
  ) {
    return this.updateAccount.execute({ accountId, language: body.language, group: body.group });
  }

  @Post('accounts/:accountId/keys')
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
  async listKeys(@Param('accountId', accountIdOf) accountId: string, @Query(noQuery) _query: NoQuery) {
    return { items: await this.apiKeys.list(accountId) };
  }

  @Patch('keys/:keyId')
  updateKey(
    @Param('keyId', keyRefOf) keyId: string,
    @Body(new SchemaPipe(UpdateKeyBody)) body: UpdateKeyBody,
  ) {
    return this.apiKeys.setDailyCap(keyId, parseUsd(body.dailyCap)!);
  }

  @Post('keys/:keyId/revoke')
  @HttpCode(200)
  revokeKey(@Param('keyId', keyRefOf) keyId: string) {
    return this.apiKeys.revoke(keyId);
  }

  @Post('accounts/:accountId/signing-secret/rotate')
  @HttpCode(200)
  rotateSigningSecret(@Param('accountId', accountIdOf) accountId: string) {
    return this.signingSecret.execute(accountId);
  }

  @Post('accounts/:accountId/console-tokens')
  @HttpCode(200)
  createConsoleToken(@Param('accountId', accountIdOf) accountId: string) {
    return this.consoleSessions.create(accountId);
  }

  /** A one-time sign-in link to the web console: PUBLIC_BASE_URL, else the origin this request came to. */
  @Post('accounts/:accountId/console-links')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  createConsoleLink(@Req() request: FastifyRequest, @Param('accountId', accountIdOf) accountId: string) {
    return this.consoleLinks.execute(accountId, this.config.PUBLIC_BASE_URL || requestBaseUrl(request));
  }

  @Get('groups')
  async listGroups(@Query(noQuery) _query: NoQuery) {
    return { items: await this.groups.list() };
  }

  @Put('groups/:name')
  putGroup(
    @Param('name', new SchemaPipe(GroupName, 'name')) name: string,
    @Body(new SchemaPipe(PutGroupBody)) body: PutGroupBody,
  ) {
    return this.groups.put(name, body.multiplier);
  }
}
