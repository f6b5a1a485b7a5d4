import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ExecutionEventType,
  PROVIDER_PORT,
  MEDIA_INPUTS,
  MediaInputError,
  ProviderFailure,
  ThinkingBlocks,
  type ChatCallOptions,
  type ChatEvent,
  type ChatRequest,
  type MediaInputsPort,
  type ChatExecutionPort,
  type EarlyChat,
  type ExecutionCause,
  type ExecutionText,
  type ExecutionUsage,
  type ProviderPort,
  type TaskCreatedPayload,
  type EventPayload,
  type ExecutionEventName,
} from '@gen/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@gen/core';
import { EVENT_BUS, type EventBus } from '@gen/messaging';
import { reportExecution } from './execution-report';

/** How long a text run goes on before it is reported started (see `run`). */
export const STARTED_REPORT_AFTER_MS = 500;

/**
 * Runs a text task through the provider port (CHAT_EXECUTION): reports it started, passes the model's events on
 * as they come, and reports the whole answer with its usage, or the failure. The runner drains it for a task
 * created by createTask; a streaming endpoint reads it and writes each event to its client. A stream that breaks
 * is a failure: a truncated answer is never reported (nor charged) as complete.
 */
@Injectable()
export class RunChatUseCase implements ChatExecutionPort {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROVIDER_PORT) private readonly provider: ProviderPort,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null = null,
    @Optional() @Inject(MEDIA_INPUTS) private readonly mediaInputs: MediaInputsPort | null = null,
  ) {}

  /**
   * The early call reads no `service://` image: the account's file is checked by the acceptance, which has not
   * happened yet. Such a request is not started early (the run calls the model once the task exists).
   */
  start(model: string, input: Record<string, unknown>): EarlyChat {
    const request = input as unknown as ChatRequest;
    if (hasServiceImage(request)) return new NotStarted(model);
    const options = this.imageOptions(null);
    return new OpenedChat(model, (signal) => this.provider.chat(model, request, signal, options));
  }

  /**
   * How a call reads the images its upstream needs as bytes (MEDIA_INPUTS: the account's own `service://` files;
   * https URLs through the SSRF guard, with the limits of uploads, verified as images). Without an account (an
   * early call), `service://` URIs are refused.
   */
  private imageOptions(accountId: string | null): ChatCallOptions {
    const media = this.mediaInputs;
    if (!media) return {};
    return {
      readImage: async (url, signal) => {
        if (accountId === null && url.startsWith('service://')) {
          throw new MediaInputError('input_unavailable', 'a service:// image before the task was accepted');
        }
        const resolved = await media.resolve(accountId ?? '', url, 'image', signal);
        return { bytes: resolved.bytes, contentType: resolved.contentType };
      },
    };
  }

  async *run(
    task: TaskCreatedPayload,
    cause: ExecutionCause,
    signal: AbortSignal,
    early?: EarlyChat,
  ): AsyncIterable<ChatEvent> {
    const opened = early instanceof OpenedChat && early.model === task.model ? early : undefined;
    if (early && !opened) early.abort();
    // A run that is still going after STARTED_REPORT_AFTER_MS is reported started (the task shows `running`);
    // a shorter one is not: its final report carries when it began, and the task goes from queued straight
    // to its terminal state (spec: the terminal moves start from either in-flight state). That is one
    // database transaction fewer for most answers, and none of them on the path to the first token.
    const startedAt = this.clock.now().toISOString();
    let started: Promise<void> | undefined;
    const timer = setTimeout(() => {
      started = this.report(task, cause, ExecutionEventType.started, { taskId: task.taskId, startedAt });
      started.catch(() => undefined);
    }, STARTED_REPORT_AFTER_MS);
    /** Stops the timer; once the started report is through, the final report need not say when it began. */
    const began = async (): Promise<{ startedAt?: string }> => {
      clearTimeout(timer);
      return started
        ? started.then(
            () => ({}),
            () => ({ startedAt }),
          )
        : { startedAt };
    };
    const events: ChatEvent[] = [];
    try {
      const events$ = opened
        ? opened.read(signal)
        : this.provider.chat(
            task.model,
            task.input as unknown as ChatRequest,
            signal,
            this.imageOptions(task.accountId),
          );
      for await (const event of events$) {
        events.push(event);
        yield event;
      }
    } catch (error) {
      const start = await began();
      if (signal.aborted) throw error;
      const failure =
        error instanceof ProviderFailure ? error : new ProviderFailure('upstream_failed', 'the model failed');
      if (error instanceof MediaInputError) {
        // The detail names no URL query and no token; the client sees the errorCode only.
        this.logger?.warn(
          { taskId: task.taskId, model: task.model, errorCode: error.errorCode, detail: error.detail },
          'an image of the conversation could not be used',
        );
      } else if (!(error instanceof ProviderFailure)) {
        this.logger?.error({ taskId: task.taskId, model: task.model, err: error }, 'text generation broke');
      }
      await this.report(task, cause, ExecutionEventType.failed, {
        taskId: task.taskId,
        errorCode:
          error instanceof ProviderFailure || error instanceof MediaInputError
            ? error.errorCode
            : 'internal_error',
        finishedAt: this.clock.now().toISOString(),
        ...start,
      });
      throw failure;
    } finally {
      // The reader stopped early: nothing more is reported from here.
      clearTimeout(timer);
    }
    const start = await began();
    const { text, usage } = answerOf(events);
    await this.report(task, cause, ExecutionEventType.succeeded, {
      taskId: task.taskId,
      assets: [],
      text,
      usage,
      finishedAt: this.clock.now().toISOString(),
      ...start,
    });
  }

  private report<T extends ExecutionEventName>(
    task: TaskCreatedPayload,
    cause: ExecutionCause,
    type: T,
    payload: EventPayload<T>,
  ): Promise<void> {
    return reportExecution(this.bus, task, cause, type, payload, this.clock.now());
  }
}

/** A request not started early: `run` calls the model itself. */
class NotStarted implements EarlyChat {
  constructor(readonly model: string) {}
  abort(): void {}
}

function hasServiceImage(request: ChatRequest): boolean {
  return request.messages.some(
    (m) =>
      Array.isArray(m.content) &&
      m.content.some((p) => p.type === 'image_url' && p.image_url.url.startsWith('service://')),
  );
}

/**
 * A model call opened early (`start`): its first event is asked for at once, so the request goes out now, and
 * `read` continues from it. It has its own controller: `abort` ends it before the task exists; once read, the
 * run's signal aborts it too.
 */
class OpenedChat implements EarlyChat {
  private readonly controller = new AbortController();
  private readonly iterator: AsyncIterator<ChatEvent>;
  private readonly first: Promise<IteratorResult<ChatEvent>>;
  private taken = false;

  constructor(
    readonly model: string,
    call: (signal: AbortSignal) => AsyncIterable<ChatEvent>,
  ) {
    this.iterator = call(this.controller.signal)[Symbol.asyncIterator]();
    this.first = this.iterator.next();
    // Read (or dropped by abort) later; never an unhandled rejection meanwhile.
    this.first.catch(() => undefined);
  }

  abort(): void {
    if (this.taken) return;
    this.taken = true;
    this.controller.abort();
    void this.iterator.return?.()?.catch(() => undefined);
  }

  async *read(signal: AbortSignal): AsyncIterable<ChatEvent> {
    if (this.taken) throw new Error('an early model call is read once');
    this.taken = true;
    const forward = (): void => this.controller.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    try {
      for (let next = await this.first; !next.done; next = await this.iterator.next()) yield next.value;
    } finally {
      signal.removeEventListener('abort', forward);
      await this.iterator.return?.();
    }
  }
}

/**
 * A text answer and its billable usage from the canonical events: tool call fragments joined by index; input
 * tokens split into uncached and cached, as billing prices them.
 */
export function answerOf(events: readonly ChatEvent[]): { text: ExecutionText; usage: ExecutionUsage } {
  let content = '';
  let reasoning = '';
  let finishReason: ExecutionText['finishReason'] = 'stop';
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  const thinking = new ThinkingBlocks();
  let usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  for (const event of events) {
    thinking.add(event);
    if (event.type === 'text') content += event.delta;
    else if (event.type === 'reasoning') reasoning += event.delta;
    else if (event.type === 'finish') finishReason = event.reason;
    else if (event.type === 'usage') usage = event;
    else if (event.type === 'tool_call') {
      const call = calls.get(event.index) ?? { id: '', name: '', arguments: '' };
      if (event.id) call.id = event.id;
      if (event.name) call.name = event.name;
      call.arguments += event.argumentsDelta;
      calls.set(event.index, call);
    }
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return {
    text: {
      content,
      ...(reasoning ? { reasoning } : {}),
      ...(thinking.blocks.length ? { thinkingBlocks: thinking.blocks } : {}),
      ...(toolCalls.length ? { toolCalls } : {}),
      finishReason,
    },
    usage: {
      inputTokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens),
      cachedInputTokens: usage.cachedInputTokens,
      outputTokens: usage.outputTokens,
      reasoningTokens: usage.reasoningTokens,
    },
  };
}
