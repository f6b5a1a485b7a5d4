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
  ApiOperation,
  EventStream,
  envelopeResponse,
  errorResponses,
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
import {
  CreateTaskResult,
  ListTasksQuery,
  PurgeResult,
  QuoteResult,
  RecordInfoQuery,
  RetryResult,
  TaskIdBody,
  TaskPage,
  TaskRecord,
  TaskRequestBody,
  UsageQuery,
  UsageResult,
} from './task.dto';

/** Words of the date range of the task list and usage (their schemas are the query pipes'). */
export const DATE_WORDS = [
  {
    name: 'from',
    in: 'query',
    description: 'Inclusive UTC date (YYYY-MM-DD); default seven days before `to`.',
  },
  {
    name: 'to',
    in: 'query',
    description: 'Exclusive UTC date; default tomorrow. At most 92 days after `from`.',
  },
];

/** Words of the task list's query parameters (native and console). */
export const LIST_WORDS = [
  ...DATE_WORDS,
  { name: 'model', in: 'query', description: 'Exact catalog id or a declared alias.' },
  { name: 'cursor', in: 'query', description: 'Opaque nextCursor of the previous page.' },
];

const TASK_REQUEST_EXAMPLES = {
  textToImage: {
    summary: 'Text to image',
    value: {
      model: 'local/sketch',
      input: { prompt: 'a lighthouse at dusk, pencil sketch', width: 768, height: 512 },
    },
  },
  imageToImageFromFile: {
    summary: 'Image to image from an uploaded file (the uri a commit answered)',
    value: {
      model: 'local/sketch',
      input: { prompt: 'the same, in winter', image: 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB' },
    },
  },
  imageToImageFromUrl: {
    summary: 'Image to image from a public https URL (fetched by the runner through the SSRF guard)',
    value: {
      model: 'local/sketch',
      input: { prompt: 'the same, in winter', image: 'https://images.example.com/lighthouse.png' },
    },
  },
};

export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Same account and API key, same normalized model, input and callback URL within 24 hours: the original task in its current state, no second hold. Another API key of the account: 409 without the task id. Other semantics: 409.',
};

/** The words of quote's, createTask's and stream's body: its examples. */
const TASK_REQUEST = { examples: TASK_REQUEST_EXAMPLES };

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
  @ApiOperation({
    tags: ['tasks'],
    summary: 'Run a text task and stream its answer as Server-Sent Events.',
    description:
      'Text models only (another model: 503, business code 503). The same validation, quote, Idempotency-Key and hold as createTask; everything refused before the stream starts is a normal JSON error in the envelope, holding nothing, and so is a failure of the model before its first event (400 for a content refusal, 503 with 50301 otherwise; the hold is released) unless the model was silent past TEXT_STREAM_KEEPALIVE_MS (default 10 s): then the stream has already opened with a `: keep-alive` comment and the failure is an `event: error` in it. Then `text/event-stream`: one JSON chunk per `data:` line, each a canonical event (a choice of ours): `{"type":"text","delta"}`, `{"type":"reasoning","delta"}`, `{"type":"tool_call","index","id"?,"name"?,"argumentsDelta"}` (join the deltas of one index), `{"type":"usage","inputTokens","cachedInputTokens","outputTokens","reasoningTokens"}`, `{"type":"finish","reason"}`; the stream ends with `data: [DONE]`. `: keep-alive` comment lines come while the model thinks (after each TEXT_STREAM_KEEPALIVE_MS of silence, before the first event as between events). A failure after the first event ends the stream with `event: error` and `data: {"taskId","errorCode","msg"}`; the hold is released and a truncated answer is never charged. The task id is in `X-Service-Task-Id`; its cost is read with recordInfo once settled. A client that disconnects only stops reception: the task finishes and is settled by the work performed. When the service stops (SIGTERM), an open answer runs on to its end and is settled by its usage; one still running near the end of the shutdown grace is cut: with something delivered it ends as a complete stream does (a `usage` then a `finish` with reason `length`) and is charged by what it delivered, with nothing delivered it fails with `service_interrupted` (a 503 with 50301 before the stream opened), uncharged. When the process serving it dies, the task fails with `service_interrupted` within TEXT_STREAM_LEASE_MS (default 10 s), uncharged. An Idempotency-Key used again answers 409 (`X-Service-Task-Id` names the task): the stream is not sent twice and nothing is charged twice; after a `service_interrupted` failure the key may be used again.',
    parameters: [IDEMPOTENCY_KEY],
    requestBody: TASK_REQUEST,
    responses: {
      '200': {
        description: 'The answer as Server-Sent Events.',
        headers: {
          'X-Service-Task-Id': { schema: { type: 'string', pattern: '^job_' } },
          'X-Request-Id': { schema: { type: 'string' } },
        },
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
    },
  })
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
  @ApiOperation({
    tags: ['tasks'],
    summary: 'Quote a task request: validated like createTask; creates nothing and holds nothing.',
    description:
      'Field names of the quote are our choice. The quote is signed, bound to the account, the API key and the normalized request (model, input, callback URL), and valid five minutes. Funds and the daily spend cap are checked as at acceptance (402). `Cache-Control: no-store`.',
    requestBody: TASK_REQUEST,
    responses: {
      ...envelopeResponse('The quote.', QuoteResult, { rateLimited: true }),
      ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
    },
  })
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
  @ApiOperation({
    tags: ['tasks'],
    summary: 'Create a task: funds are held and the task is queued.',
    description:
      "A rejected request creates nothing and holds nothing. `quoteId` with `expectedCost`: an expired or changed quote is 40901, but a replayed accepted Idempotency-Key still returns its task. `X-Service-Retention` (whole seconds > 0) shortens the 14-day retention of outputs and prompt. A media field of the input (`\"format\": \"media-uri\"` in the model's inputSchema, e.g. `local/sketch`'s `image`) takes the `service://files/fil_...` URI of a file of this account, of the field's kind (else 400 naming the field; another account's file answers as a missing one), or a public https URL, which the runner fetches (a URL it cannot use fails the task with `input_unavailable` or `input_invalid`, uncharged). 402 carries 40201 (insufficient funds) or 40202 (the key's daily spend cap, which counts holds). 503 (business code 503) for a model that is not available (its credentials unset); 503 with business code 50301 and `Retry-After` for a model whose upstreams' circuit breakers are open (temporary: retry later). Either way nothing is held.",
    parameters: [
      IDEMPOTENCY_KEY,
      {
        name: 'X-Service-Retention',
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]+$' },
        description: "Seconds (> 0); shortens retention of this task's outputs and prompt.",
      },
    ],
    requestBody: TASK_REQUEST,
    responses: {
      '202': {
        description: 'Accepted.',
        headers: {
          'X-Request-Id': { schema: { type: 'string', pattern: '^req_' } },
          Location: {
            schema: { type: 'string' },
            description: 'Relative URL of recordInfo for the task.',
          },
          'Retry-After': { schema: { type: 'string' }, description: 'Seconds before the first poll.' },
          'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
          'X-RateLimit-Limit': { schema: { type: 'string' } },
          'X-RateLimit-Remaining': { schema: { type: 'string' } },
        },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'msg', 'data', 'request_id'],
              properties: {
                code: { const: 200 },
                msg: { type: 'string' },
                data: CreateTaskResult,
                request_id: { type: 'string', pattern: '^req_' },
              },
            },
          },
        },
      },
      ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
    },
  })
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
  @ApiOperation({
    tags: ['tasks'],
    summary: 'Read a task: the same shape in every state; fresh signed URLs for stored assets.',
    description:
      'Unknown tasks, tasks of another account and tasks of another API key are the same 404. A taskId not shaped like one (`job_` and a ULID) is 400 before any lookup. `Cache-Control: no-store`.',
    responses: {
      ...envelopeResponse('The task record.', TaskRecord, { rateLimited: true }),
      ...errorResponses([400, 401, 403, 404, 429, 500]),
    },
  })
  @Header('cache-control', 'no-store')
  record(@Req() request: FastifyRequest, @Query(new QueryPipe(RecordInfoQuery)) query: RecordInfoQuery) {
    const principal = request.edge!.principal!;
    const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
    return this.getTask.execute(principal, query.taskId, language);
  }

  /** POST /api/v1/jobs/retry */
  @Post('jobs/retry')
  @ApiOperation({
    tags: ['tasks'],
    summary: 'A new, separately billed task from a failed, expired or historical canceled task of this key.',
    description:
      'The source is unchanged; model, input and callback URL are checked again (schema, price, availability, balance). Idempotency-Key is scoped to the source task and the retry action. A source in another state is 409 "Only a failed, expired or canceled task can be retried."; a purged source (by purge or at the end of retention) is 409 "A purged task cannot be retried: its prompt no longer exists." Unknown, other-account and other-key sources are 404.',
    parameters: [{ ...IDEMPOTENCY_KEY, description: 'Scoped to the source task and the retry action.' }],
    responses: {
      ...envelopeResponse('The new task.', RetryResult, { rateLimited: true }),
      ...errorResponses([400, 401, 402, 403, 404, 409, 413, 429, 500, 503]),
    },
  })
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
  @ApiOperation({
    tags: ['tasks'],
    summary: 'Destroy the outputs and the prompt of a terminal task of this key; billing stays.',
    description:
      'Request and response fields are our choice. Purging again answers the same. A queued or running task is 409. The task record then has no input and every asset is unavailable, with `purgedAt`.',
    responses: {
      ...envelopeResponse('Purged.', PurgeResult, { rateLimited: true }),
      ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
    },
  })
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
  @ApiOperation({
    tags: ['tasks'],
    summary: "This key's task history, newest first by createdAt then taskId; metadata only.",
    description:
      'The items field is `items`. A cursor freezes the filters of the first page (including the default dates); repeating a filter with it is allowed, changing or adding one is 400 "The cursor was issued for other filters: <name> differs. …". A cursor that is not one of ours is 400 naming `cursor`. Unknown, repeated or empty parameters are 400. Past the five-second budget: 503.',
    parameters: LIST_WORDS,
    responses: {
      ...envelopeResponse('One page of task summaries.', TaskPage, { rateLimited: true }),
      ...errorResponses([400, 401, 403, 429, 500, 503]),
    },
  })
  @Header('cache-control', 'no-store')
  list(@Req() request: FastifyRequest, @Query(new QueryPipe(ListTasksQuery)) query: ListTasksQuery) {
    return this.listTasks.execute(request.edge!.principal!, query);
  }

  /** GET /api/v1/usage: its own bucket per account (shared by the account's keys), failing closed. */
  @Get('usage')
  @ApiOperation({
    tags: ['account'],
    summary: "Calls and settled spend of this key's tasks by creation day and model (sparse buckets).",
    description:
      'Field names are our choice. Counts tasks created by this key, attributed to their creation day (UTC); spend sums settled charges only, so late settlement can change an earlier day. Not a cash statement. A token bucket of 30 refilling 30 a minute per account (shared by its keys): X-RateLimit-Limit and X-RateLimit-Remaining describe it; 429 with Retry-After; it fails closed. Past the five-second budget: 503 (try a shorter range).',
    parameters: DATE_WORDS,
    responses: {
      ...envelopeResponse('Usage.', UsageResult, { rateLimited: true }),
      ...errorResponses([400, 401, 403, 429, 500, 503]),
    },
  })
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
