import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { BusinessCode, ProviderFailure } from '@gen/contracts';
import {
  APP_CONFIG,
  DomainError,
  formatUsd,
  negotiateLanguage,
  taskErrorMessage,
  type AppConfig,
} from '@gen/core';
import {
  EventStream,
  NoQuery,
  QueryPipe,
  RateLimited,
  SchemaPipe,
  settleWithin,
  SSE_KEEP_ALIVE,
} from '@gen/edge';
import { OpenTextTaskUseCase } from '../use-cases/open-text-task.use-case';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateTaskUseCase } from '../use-cases/create-task.use-case';
import { GetTaskUseCase } from '../use-cases/get-task.use-case';
import { GetUsageUseCase } from '../use-cases/get-usage.use-case';
import { ListTasksUseCase } from '../use-cases/list-tasks.use-case';
import { PurgeTaskUseCase } from '../use-cases/purge-task.use-case';
import { QuoteTaskUseCase } from '../use-cases/quote-task.use-case';
import { RetryTaskUseCase } from '../use-cases/retry-task.use-case';
import { ListTasksQuery, RecordInfoQuery, TaskIdBody, TaskRequestBody, UsageQuery } from './task.dto';

/** Spec, Limits: usage reporting is a token bucket of 30, refilling 30 a minute, per account. */
export const USAGE_RATE_POLICY = { burst: 30, refillPerMinute: 30 } as const;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** How long a client should wait before its first poll of a new task, in seconds. */
const FIRST_POLL_SECONDS = '1';

@Controller('api/v1')
export class TasksController {
  constructor(
    private readonly createTask: CreateTaskUseCase,
    private readonly quoteTask: QuoteTaskUseCase,
    private readonly getTask: GetTaskUseCase,
    private readonly retryTask: RetryTaskUseCase,
    private readonly purgeTask: PurgeTaskUseCase,
    private readonly listTasks: ListTasksUseCase,
    private readonly usage: GetUsageUseCase,
    private readonly textTasks: OpenTextTaskUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /api/v1/jobs/stream: a text task answered as Server-Sent Events, one JSON chunk per `data:` line (the
   * canonical events: `text`, `reasoning`, `tool_call`, `usage`, `finish`), then `data: [DONE]`. Everything
   * createTask checks is checked first and answered as a normal JSON error; so is a failure before the first
   * event (its hold released). A model silent past TEXT_STREAM_KEEPALIVE_MS gets `: keep-alive` comments, the
   * first one opening the stream. A failure after the stream opened is an `event: error` chunk, the hold
   * released. The task id is in `X-Service-Task-Id`; the charge is read with recordInfo once settled.
   */
  @Post('jobs/stream')
  async stream(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(TaskRequestBody)) body: TaskRequestBody,
  ): Promise<void> {
    const principal = request.edge!.principal!;
    const opened = await this.textTasks.open({
      principal,
      model: body.model,
      input: body.input as Record<string, unknown>,
      ...(body.quoteId !== undefined ? { quoteId: body.quoteId } : {}),
      ...(body.expectedCost !== undefined ? { expectedCost: body.expectedCost } : {}),
      ...(body.callBackUrl !== undefined ? { callBackUrl: body.callBackUrl } : {}),
      idempotencyKey: header(request, 'idempotency-key'),
      retention: header(request, 'x-service-retention'),
      requestId: request.id,
    });
    reply.header('x-service-task-id', opened.taskId);
    if (!opened.events) {
      throw new DomainError(BusinessCode.Conflict, 'stream.replayed', { taskId: opened.taskId });
    }
    const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
    const events = opened.events[Symbol.asyncIterator]();
    const silentMs = this.config.TEXT_STREAM_KEEPALIVE_MS;
    const next = events.next();
    const early = await settleWithin(next, silentMs);
    if (early.status === 'rejected') throw streamFailure(early.reason);
    const out = new EventStream(
      reply,
      200,
      {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-service-task-id': opened.taskId,
        'x-accel-buffering': 'no',
      },
      { text: SSE_KEEP_ALIVE, silentMs },
    );
    try {
      // A model still thinking after TEXT_STREAM_KEEPALIVE_MS: the stream opens with `: keep-alive` (spec,
      // compatibility streaming rule 3), so a failure before its first event is an error event from then on.
      if (early.status === 'pending') await out.keepAliveNow();
      const first = early.status === 'fulfilled' ? early.value : await next;
      for (let step = first; !step.done; step = await events.next()) {
        await out.write(`data: ${JSON.stringify(step.value)}\n\n`);
      }
      out.end('data: [DONE]\n\n');
    } catch (error) {
      const errorCode = error instanceof ProviderFailure ? error.errorCode : 'internal_error';
      out.end(
        `event: error\ndata: ${JSON.stringify({ taskId: opened.taskId, errorCode, msg: taskErrorMessage(language, errorCode) })}\n\n`,
      );
    }
  }

  /** POST /api/v1/jobs/quote */
  @Post('jobs/quote')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  quote(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(TaskRequestBody)) body: TaskRequestBody,
  ) {
    return this.quoteTask.execute(request.edge!.principal!, body);
  }

  /** POST /api/v1/jobs/createTask */
  @Post('jobs/createTask')
  @HttpCode(202)
  @Header('cache-control', 'no-store')
  async create(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(TaskRequestBody)) body: TaskRequestBody,
  ) {
    const { task } = await this.createTask.execute({
      principal: request.edge!.principal!,
      request: body,
      idempotencyKey: header(request, 'idempotency-key'),
      retention: header(request, 'x-service-retention'),
      requestId: request.id,
    });
    reply.header('location', `/api/v1/jobs/recordInfo?taskId=${encodeURIComponent(task.id)}`);
    reply.header('retry-after', FIRST_POLL_SECONDS);
    return {
      taskId: task.id,
      state: task.state,
      estimatedCost: formatUsd(task.estimatedE9),
      deadlineAt: task.deadlineAt.toISOString(),
    };
  }

  /** GET /api/v1/jobs/recordInfo?taskId= */
  @Get('jobs/recordInfo')
  @Header('cache-control', 'no-store')
  record(@Req() request: FastifyRequest, @Query(new QueryPipe(RecordInfoQuery)) query: RecordInfoQuery) {
    const principal = request.edge!.principal!;
    const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
    return this.getTask.execute(principal, query.taskId, language);
  }

  /** POST /api/v1/jobs/retry */
  @Post('jobs/retry')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async retry(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(TaskIdBody)) body: TaskIdBody,
  ) {
    const { task } = await this.retryTask.execute({
      principal: request.edge!.principal!,
      taskId: body.taskId,
      idempotencyKey: header(request, 'idempotency-key'),
      requestId: request.id,
    });
    return {
      taskId: task.id,
      sourceTaskId: task.sourceTaskId!,
      state: task.state,
      estimatedCost: formatUsd(task.estimatedE9),
      deadlineAt: task.deadlineAt.toISOString(),
    };
  }

  /** POST /api/v1/jobs/purge */
  @Post('jobs/purge')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  purge(
    @Req() request: FastifyRequest,
    @Query(new QueryPipe(NoQuery)) _query: NoQuery,
    @Body(new SchemaPipe(TaskIdBody)) body: TaskIdBody,
  ) {
    return this.purgeTask.execute(request.edge!.principal!, body.taskId);
  }

  /** GET /api/v1/jobs */
  @Get('jobs')
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListTasksQuery)) query: ListTasksQuery) {
    return this.listTasks.execute(request.edge!.principal!, query);
  }

  /** GET /api/v1/usage: its own bucket per account (shared by the account's keys), failing closed. */
  @Get('usage')
  @Header('cache-control', 'no-store')
  @RateLimited({
    policy: USAGE_RATE_POLICY,
    bucketOf: (request) => `usage:${request.edge!.principal!.accountId}`,
  })
  usageOf(@Req() request: FastifyRequest, @Query(new QueryPipe(UsageQuery)) query: UsageQuery) {
    return this.usage.execute(request.edge!.principal!, query);
  }
}

/**
 * A failure before the first event, as a normal error: the refusal is a 400, any other a 503 to retry (an answer
 * the service cut before it began, as it stopped, says so).
 */
function streamFailure(error: unknown): unknown {
  if (!(error instanceof ProviderFailure)) return error;
  if (error.errorCode === 'content_rejected')
    return new DomainError(BusinessCode.InvalidRequest, 'task.error.content_rejected');
  // An image of the conversation that could not be read (gone, refused, not an image): the caller's to fix.
  if (error.errorCode === 'input_unavailable' || error.errorCode === 'input_invalid')
    return new DomainError(BusinessCode.InvalidRequest, `task.error.${error.errorCode}`);
  return new DomainError(
    BusinessCode.TemporarilyUnavailable,
    error.errorCode === 'service_interrupted'
      ? 'task.error.service_interrupted'
      : 'task.error.upstream_failed',
  );
}
