import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import {
  BusinessCode,
  CATALOG_PORT,
  COMPAT_TASKS,
  ProviderFailure,
  TEXT_TASKS,
  type CatalogPort,
  type ChatEvent,
  type CompatTasksPort,
  type TextTasksPort,
} from '@gen/contracts';
import {
  APP_CONFIG,
  DomainError,
  negotiateLanguage,
  translate,
  type AppConfig,
  type Language,
  type MessageId,
} from '@gen/core';
import { EventStream, settleWithin, SSE_KEEP_ALIVE } from '@gen/edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { aggregate, ProtocolError, type ChatResult, type MappedRequest } from '../canonical/text-input';
import { applyFieldRules } from '../field-handling';
import { mapVideoRequest, writeVideo } from '../videos';
import {
  CHAT_COMPLETIONS,
  GENERATE_CONTENT,
  MESSAGES,
  RESPONSES,
  type CompatCall,
  type CompatProtocol,
} from './compat-protocols';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * `/v1beta/models/{model}:generateContent` and `:streamGenerateContent`, and the same under `/v1` (where
 * `@google/genai` 3.x calls them by default): the model keeps its slashes. The edge takes the `/v1` ones for
 * Google's (routeFamily), so every error there is in Google's shape too.
 */
const GENERATE_PATH = /^\/v1(?:beta)?\/models\/([^?]+):(generateContent|streamGenerateContent)(?:\?|$)/;

/**
 * The four compatibility protocols over one flow: the protocol's request mapped to the canonical text input,
 * the model's field rules applied (X-Service-Ignored-Params, X-Service-Adjusted-Params), the task opened like a
 * stream (validation, hold: TEXT_TASKS) and run where the client is, and the answer written in the protocol's
 * shapes, streamed or whole. The API key was checked by the edge (Bearer, x-api-key, x-gen-api-key,
 * x-goog-api-key); errors the edge renders (402, 429, ...) come in the protocol's error shape too.
 */
@Controller()
export class CompatController {
  constructor(
    @Inject(TEXT_TASKS) private readonly textTasks: TextTasksPort,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(COMPAT_TASKS) private readonly tasks: CompatTasksPort,
  ) {}

  /** POST /v1/videos: a task of a video model, in OpenAI's Video shape (the spec leaves the shapes open). */
  @Post('v1/videos')
  @HttpCode(200)
  async createVideo(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const principal = request.edge!.principal!;
    const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
    try {
      const mapped = mapVideoRequest(body);
      const model = this.catalog.chatModel(mapped.model);
      if (!model || model.modality !== 'video') {
        throw new ProtocolError(
          400,
          'invalid_request',
          'compat.not_video_model',
          { model: mapped.model },
          'model',
        );
      }
      const task = await this.tasks.create({
        principal,
        model: model.id,
        input: mapped.input,
        idempotencyKey: header(request, 'idempotency-key'),
        requestId: request.id,
      });
      reply.header('x-service-task-id', task.taskId);
      return writeVideo(task);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      reply.status(error.status).header('content-language', language);
      return CHAT_COMPLETIONS.error(error, message(language, error));
    }
  }

  /** GET /v1/videos/{id}: the task as a Video; any id that is not a video task of this key is 404. */
  @Get('v1/videos/:id')
  async getVideo(@Req() request: FastifyRequest, @Param('id') id: string) {
    return writeVideo(await this.videoTask(request, id));
  }

  /** GET /v1/videos/{id}/content: a redirect to the stored file's short-lived signed URL once completed. */
  @Get('v1/videos/:id/content')
  async videoContent(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    const task = await this.videoTask(request, id);
    const url = task.output?.assets.find((asset) => asset.url !== undefined)?.url;
    if (!url) {
      const principal = request.edge!.principal!;
      const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
      const error = new ProtocolError(404, 'not_found', 'compat.video_not_ready', {
        id,
        status: String(writeVideo(task)['status']),
      });
      return reply
        .status(404)
        .header('content-language', language)
        .send(CHAT_COMPLETIONS.error(error, message(language, error)));
    }
    return reply.status(302).header('location', url).send();
  }

  private async videoTask(request: FastifyRequest, id: string) {
    const principal = request.edge!.principal!;
    const task = await this.tasks.get(principal, id, principal.language ?? 'en');
    if (this.catalog.chatModel(task.model)?.modality !== 'video') {
      throw new DomainError(BusinessCode.NotFound, 'task.not_found');
    }
    return task;
  }

  @Post('v1/chat/completions')
  chatCompletions(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    return this.serve(CHAT_COMPLETIONS, request, reply, { body, requestId: request.id });
  }

  @Post('v1/responses')
  responses(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    return this.serve(RESPONSES, request, reply, { body, requestId: request.id });
  }

  @Post('v1/messages')
  messages(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    return this.serve(MESSAGES, request, reply, { body, requestId: request.id });
  }

  @Post(['v1beta/models/*', 'v1/models/*'])
  generateContent(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown) {
    const match = GENERATE_PATH.exec(request.url);
    if (!match) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    const alt = new URL(request.url, 'http://x').searchParams.get('alt') ?? undefined;
    return this.serve(GENERATE_CONTENT, request, reply, {
      body,
      urlModel: decodeURIComponent(match[1]!),
      stream: match[2] === 'streamGenerateContent',
      ...(alt !== undefined ? { alt } : {}),
      requestId: request.id,
    });
  }

  private async serve(
    protocol: CompatProtocol,
    request: FastifyRequest,
    reply: FastifyReply,
    call: CompatCall,
  ): Promise<void> {
    const principal = request.edge!.principal!;
    const language = negotiateLanguage(header(request, 'accept-language'), principal.language);
    const refuse = (error: ProtocolError): void => {
      reply
        .status(error.status)
        .header('content-language', language)
        .header('content-type', 'application/json; charset=utf-8')
        .send(protocol.error(error, message(language, error)));
    };
    let mapped: MappedRequest;
    let input: Record<string, unknown>;
    try {
      mapped = protocol.map(call);
      const model = this.catalog.chatModel(mapped.model);
      if (!model) {
        const closest = this.catalog.closestChatModel(mapped.model);
        throw new ProtocolError(
          404,
          'model_not_found',
          closest ? 'compat.model_not_found' : 'compat.model_not_found_none',
          { model: mapped.model, ...(closest ? { closest } : {}) },
          'model',
        );
      }
      if (model.modality !== 'text' || !model.text) {
        throw new ProtocolError(
          400,
          'invalid_request',
          'compat.not_chat_model',
          { model: model.id },
          'model',
        );
      }
      const ruled = applyFieldRules(mapped, model.text);
      input = ruled.input as unknown as Record<string, unknown>;
      const ignored = [...new Set([...mapped.ignored, ...ruled.ignored])];
      if (ignored.length) reply.header('x-service-ignored-params', ignored.join(','));
      if (ruled.adjusted.length) reply.header('x-service-adjusted-params', ruled.adjusted.join(','));
      mapped = { ...mapped, model: model.id };
    } catch (error) {
      if (error instanceof ProtocolError) return refuse(error);
      throw error;
    }
    const opened = await this.textTasks.open({
      principal,
      model: mapped.model,
      input,
      idempotencyKey: header(request, 'idempotency-key'),
      requestId: call.requestId,
    });
    reply.header('x-service-task-id', opened.taskId);
    if (!opened.events) {
      throw new DomainError(BusinessCode.Conflict, 'stream.replayed', { taskId: opened.taskId });
    }
    const base = { id: call.requestId, model: mapped.model, created: Math.floor(Date.now() / 1000) };
    const events = opened.events[Symbol.asyncIterator]();
    const stream = call.stream ?? mapped.stream;
    if (stream) return this.streamed(protocol, reply, call, mapped, base, events, language, refuse);
    return this.whole(protocol, reply, call, mapped, base, events, language, refuse);
  }

  /** The answer as one body; held open with whitespace (and X-Service-Keepalive: 1) past about 30 s. */
  private async whole(
    protocol: CompatProtocol,
    reply: FastifyReply,
    call: CompatCall,
    mapped: MappedRequest,
    base: Pick<ChatResult, 'id' | 'model' | 'created'>,
    events: AsyncIterator<ChatEvent>,
    language: Language,
    refuse: (error: ProtocolError) => void,
  ): Promise<void> {
    const all: ChatEvent[] = [];
    let held: EventStream | null = null;
    const timer = setTimeout(() => {
      held = new EventStream(
        reply,
        200,
        { 'content-type': 'application/json; charset=utf-8', 'x-service-keepalive': '1' },
        { text: ' ', silentMs: this.config.TEXT_STREAM_KEEPALIVE_MS },
      );
      void held.keepAliveNow();
      // Spec, Limits: a non-streamed answer still running after about 30 s (TEXT_KEEPALIVE_MS).
    }, this.config.TEXT_KEEPALIVE_MS);
    try {
      for (let step = await events.next(); !step.done; step = await events.next()) all.push(step.value);
    } catch (error) {
      clearTimeout(timer);
      const failure = failureOf(error);
      const open = held as EventStream | null;
      if (open) return open.end(JSON.stringify(protocol.error(failure, message(language, failure))));
      return refuse(failure);
    }
    clearTimeout(timer);
    const body = JSON.stringify(protocol.response(aggregate(all, base), mapped, call));
    const open = held as EventStream | null;
    if (open) return open.end(body);
    reply.status(200).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  /**
   * The answer as the protocol's stream. A failure before the first event is a normal error response, unless the
   * model stays silent past TEXT_STREAM_KEEPALIVE_MS: then the stream opens with a keep-alive (spec, streaming
   * rule 3: `: keep-alive` comment lines while a model thinks) and a failure is the protocol's error in it.
   */
  private async streamed(
    protocol: CompatProtocol,
    reply: FastifyReply,
    call: CompatCall,
    mapped: MappedRequest,
    base: Pick<ChatResult, 'id' | 'model' | 'created'>,
    events: AsyncIterator<ChatEvent>,
    language: Language,
    refuse: (error: ProtocolError) => void,
  ): Promise<void> {
    const silentMs = this.config.TEXT_STREAM_KEEPALIVE_MS;
    const next = events.next();
    const early = await settleWithin(next, silentMs);
    if (early.status === 'rejected') return refuse(failureOf(early.reason));
    const writer = protocol.streamWriter(base, mapped, call);
    const contentType = protocol.streamContentType(call);
    const out = new EventStream(
      reply,
      200,
      { 'content-type': contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      // A JSON array (generate content without alt=sse) is kept alive with whitespace, which JSON allows
      // before, between and after its values; a comment line would make the body invalid JSON.
      { text: contentType.startsWith('text/event-stream') ? SSE_KEEP_ALIVE : ' ', silentMs },
    );
    const all: ChatEvent[] = [];
    let started = false;
    try {
      if (early.status === 'pending') await out.keepAliveNow();
      const first = early.status === 'fulfilled' ? early.value : await next;
      started = true;
      for (const frame of writer.start()) await out.write(frame);
      for (let step = first; !step.done; step = await events.next()) {
        all.push(step.value);
        for (const frame of writer.event(step.value)) await out.write(frame);
      }
      await finish(out, writer.end(aggregate(all, base)));
    } catch (error) {
      const failure = failureOf(error);
      // A failure while the opened stream waited for its first event: the protocol's opening frames first (the
      // JSON array's `[`, the Responses `response.created`), then its error.
      const opening = started ? [] : writer.start();
      await finish(out, [...opening, ...writer.error(failure, message(language, failure))]);
    }
  }
}

/** A model's failure as the protocol error a client reads: a refusal is 400 content_rejected, else 503. */
function failureOf(error: unknown): ProtocolError {
  if (error instanceof ProviderFailure && error.errorCode === 'content_rejected') {
    return new ProtocolError(400, 'content_rejected', 'task.error.content_rejected');
  }
  // An image of the conversation that could not be read (gone, refused, not an image): the caller's to fix.
  if (
    error instanceof ProviderFailure &&
    (error.errorCode === 'input_unavailable' || error.errorCode === 'input_invalid')
  ) {
    return new ProtocolError(400, 'invalid_request', `task.error.${error.errorCode}`);
  }
  return new ProtocolError(503, 'upstream_failed', 'task.error.upstream_failed');
}

/** Writes a stream's closing frames, ending the response with the last one. */
async function finish(out: EventStream, frames: readonly string[]): Promise<void> {
  for (const frame of frames.slice(0, -1)) await out.write(frame);
  out.end(frames.at(-1));
}

function message(language: Language, error: ProtocolError): string {
  return translate(language, error.messageId as MessageId, error.params);
}
