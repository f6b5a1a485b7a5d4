import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { negotiateLanguage } from '@gen/core';
import { NoQuery, QueryPipe, RateLimited, SchemaPipe } from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { GetTaskUseCase } from '../use-cases/get-task.use-case';
import { GetUsageUseCase } from '../use-cases/get-usage.use-case';
import { ListTasksUseCase } from '../use-cases/list-tasks.use-case';
import { ConsoleTaskIdParam, ConsoleTasksQuery, ConsoleUsageQuery } from './task.dto';
import { USAGE_RATE_POLICY } from './tasks.controller';

/** The console sees every task of the session's account (any key); another account's task is 404. */
const scopeOf = (request: FastifyRequest) => ({ accountId: request.edge!.console!.accountId, keyId: null });

/** The web console's task history and usage (`/console/v1`, console session). Delegates only. */
@Controller('console/v1')
export class ConsoleTasksController {
  constructor(
    private readonly listTasks: ListTasksUseCase,
    private readonly getTask: GetTaskUseCase,
    private readonly usage: GetUsageUseCase,
  ) {}

  /** GET /console/v1/tasks: the native list's rules (range, filters, cursor), account-wide or by `keyId`. */
  @Get('tasks')
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ConsoleTasksQuery)) query: ConsoleTasksQuery) {
    return this.listTasks.execute(scopeOf(request), query);
  }

  /** GET /console/v1/tasks/{taskId}: the task record as recordInfo shows it (fresh signed asset URLs). */
  @Get('tasks/:taskId')
  @Header('cache-control', 'no-store')
  read(
    @Req() request: FastifyRequest,
    @Param('taskId', new SchemaPipe(ConsoleTaskIdParam, 'taskId')) taskId: string,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
  ) {
    const session = request.edge!.console!;
    const accept = request.headers['accept-language'];
    const language = negotiateLanguage(Array.isArray(accept) ? accept.join(',') : accept, session.language);
    return this.getTask.execute(scopeOf(request), taskId, language);
  }

  /** GET /console/v1/usage: the usage bucket of the account, shared with `/api/v1/usage`. */
  @Get('usage')
  @Header('cache-control', 'no-store')
  @RateLimited({
    policy: USAGE_RATE_POLICY,
    bucketOf: (request) => `usage:${request.edge!.console!.accountId}`,
  })
  usageOf(@Req() request: FastifyRequest, @Query(new QueryPipe(ConsoleUsageQuery)) query: ConsoleUsageQuery) {
    return this.usage.execute(scopeOf(request), query);
  }
}
