import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { parseUsd } from '@gen/core';
import { SchemaPipe } from '@gen/edge';
import { ConsoleSessionsUseCase } from '../use-cases/console-sessions.use-case';
import { CreateAccountUseCase } from '../use-cases/create-account.use-case';
import { CreateApiKeyUseCase } from '../use-cases/create-api-key.use-case';
import { GetAccountUseCase } from '../use-cases/get-account.use-case';
import { ManageApiKeyUseCase } from '../use-cases/manage-api-key.use-case';
import { ManageGroupsUseCase } from '../use-cases/manage-groups.use-case';
import { RotateSigningSecretUseCase } from '../use-cases/rotate-signing-secret.use-case';
import { UpdateAccountUseCase } from '../use-cases/update-account.use-case';
import {
  CreateAccountBody,
  CreateKeyBody,
  GroupName,
  PutGroupBody,
  UpdateAccountBody,
  UpdateKeyBody,
} from './admin.dto';

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
  read(@Param('accountId') accountId: string) {
    return this.getAccount.execute(accountId);
  }

  @Patch('accounts/:accountId')
  update(
    @Param('accountId') accountId: string,
    @Body(new SchemaPipe(UpdateAccountBody)) body: UpdateAccountBody,
  ) {
    return this.updateAccount.execute({ accountId, language: body.language, group: body.group });
  }

  @Post('accounts/:accountId/keys')
  @HttpCode(200)
  createKey(@Param('accountId') accountId: string, @Body(new SchemaPipe(CreateKeyBody)) body: CreateKeyBody) {
    return this.createApiKey.execute({
      accountId,
      name: body.name,
      dailyCapE9: body.dailyCap === undefined ? undefined : parseUsd(body.dailyCap)!,
    });
  }

  @Get('accounts/:accountId/keys')
  async listKeys(@Param('accountId') accountId: string) {
    return { items: await this.apiKeys.list(accountId) };
  }

  @Patch('keys/:keyId')
  updateKey(@Param('keyId') keyId: string, @Body(new SchemaPipe(UpdateKeyBody)) body: UpdateKeyBody) {
    return this.apiKeys.setDailyCap(keyId, parseUsd(body.dailyCap)!);
  }

  @Post('keys/:keyId/revoke')
  @HttpCode(200)
  revokeKey(@Param('keyId') keyId: string) {
    return this.apiKeys.revoke(keyId);
  }

  @Post('accounts/:accountId/signing-secret/rotate')
  @HttpCode(200)
  rotateSigningSecret(@Param('accountId') accountId: string) {
    return this.signingSecret.execute(accountId);
  }

  @Post('accounts/:accountId/console-tokens')
  @HttpCode(200)
  createConsoleToken(@Param('accountId') accountId: string) {
    return this.consoleSessions.create(accountId);
  }

  @Get('groups')
  async listGroups() {
    return { items: await this.groups.list() };
  }

  @Put('groups/:name')
  putGroup(
    @Param('name', new SchemaPipe(GroupName)) name: string,
    @Body(new SchemaPipe(PutGroupBody)) body: PutGroupBody,
  ) {
    return this.groups.put(name, parseUsd(body.multiplier)!);
  }
}
