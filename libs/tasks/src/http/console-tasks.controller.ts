import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { negotiateLanguage } from '@gen/core';
import {
  ApiOperation,
  CONSOLE_SECURITY,
  NoQuery,
  QueryPipe,
  RateLimited,
  SchemaPipe,
  envelopeResponse,
  errorResponses,
} from '@gen/edge';
import type { FastifyRequest } from 'fastify';
import { GetTaskUseCase } from '../use-cases/get-task.use-case';
import { GetUsageUseCase } from '../use-cases/get-usage.use-case';
import { ListTasksUseCase } from '../use-cases/list-tasks.use-case';
import {
  ConsoleTaskIdParam,
  ConsoleTaskPage,
  ConsoleTasksQuery,
  ConsoleUsageQuery,
  TaskRecord,
  UsageResult,
} from './task.dto';
import { DATE_WORDS, LIST_WORDS, USAGE_RATE_POLICY } from './tasks.controller';

/** Words of the console's `keyId` filter (its schema is the query pipe's). */
const KEY_ID_WORDS = {
  name: 'keyId',
  in: 'query',
  description: "Only the tasks of this key of the account. Another account's key simply matches nothing.",
};

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
  @ApiOperation({
    tags: ['console'],
    summary: "The account's task history (every key, or one), newest first; metadata only.",
    description:
      'The rules of `GET /api/v1/jobs` (range of at most 92 days, default the last seven; state and model filters; a cursor that freezes the filters, `keyId` included) over every key of the account. Each item names its key.',
    security: CONSOLE_SECURITY,
    parameters: [...LIST_WORDS, KEY_ID_WORDS],
    responses: {
      ...envelopeResponse('One page of task summaries.', ConsoleTaskPage),
      ...errorResponses([400, 401, 500, 503]),
    },
  })
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ConsoleTasksQuery)) query: ConsoleTasksQuery) {
    return this.listTasks.execute(scopeOf(request), query);
  }

  /** GET /console/v1/tasks/{taskId}: the task record as recordInfo shows it (fresh signed asset URLs). */
  @Get('tasks/:taskId')
  @ApiOperation({
    tags: ['console'],
    summary: 'One task of the account as recordInfo shows it, with fresh signed asset URLs.',
    description:
      "Any key of the account. Another account's task and an unknown one are the same 404. Its callback delivery and endpoint messages: `GET /console/v1/tasks/{taskId}/webhooks`.",
    security: CONSOLE_SECURITY,
    responses: {
      ...envelopeResponse('The task record.', TaskRecord),
      ...errorResponses([400, 401, 404, 500]),
    },
  })
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
  @ApiOperation({
    tags: ['console'],
    summary: "Calls and settled spend of the account's tasks (every key, or one) by creation day and model.",
    description:
      'The rules and shape of `GET /api/v1/usage` (92-day range, settled charges only), and its bucket: 30 refilling 30 a minute per account, shared with `/api/v1/usage`.',
    security: CONSOLE_SECURITY,
    parameters: [...DATE_WORDS, KEY_ID_WORDS],
    responses: {
      ...envelopeResponse('Usage.', UsageResult, { rateLimited: true }),
      ...errorResponses([400, 401, 429, 500, 503]),
    },
  })
  @Header('cache-control', 'no-store')
  @RateLimited({
    policy: USAGE_RATE_POLICY,
    bucketOf: (request) => `usage:${request.edge!.console!.accountId}`,
  })
  usageOf(@Req() request: FastifyRequest, @Query(new QueryPipe(ConsoleUsageQuery)) query: ConsoleUsageQuery) {
    return this.usage.execute(scopeOf(request), query);
  }
}
