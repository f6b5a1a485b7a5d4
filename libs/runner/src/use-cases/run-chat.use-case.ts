import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ExecutionEventType,
  PROVIDER_PORT,
  MEDIA_INPUTS,
  MediaInputError,
  chatImagesOf,
  ProviderFailure,
  ThinkingBlocks,
  type ChatCallOptions,
  type ChatEvent,
  type ChatRequest,
  type ChatUsage,
  type MediaInputsPort,
  type ChatExecutionPort,
  type EarlyChat,
  type ExecutionCause,
  type StreamRunControl,
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
    stream?: StreamRunControl,
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
    // The one final report of the run: the answer's end, its failure, or its cut, whichever comes first.
    let final: Promise<Ending> | undefined;
    const conclude = (ending: () => Promise<Ending>): Promise<Ending> => {
      final ??= ending().then((outcome) => {
        stream?.reported?.();
        return outcome;
      });
      return final;
    };
    // A cut ends the answer where it is, at once: reported from what was delivered, even while nobody reads.
    const cut = stream?.cut;
    const onCut = (): void => {
      void conclude(() => this.reportCut(task, cause, events, began)).catch(() => undefined);
    };
    if (cut?.aborted) onCut();
    else cut?.addEventListener('abort', onCut, { once: true });
    // The model call stops with the run's signal, and with the cut.
    const stop = cut ? AbortSignal.any([signal, cut]) : signal;
    let model: AsyncIterator<ChatEvent> | undefined;
    let modelDone = false;
    try {
      model = (
        opened
          ? opened.read(stop)
          : this.provider.chat(
              task.model,
              task.input as unknown as ChatRequest,
              stop,
              this.imageOptions(task.accountId),
            )
      )[Symbol.asyncIterator]();
      for (;;) {
        // A cut does not wait for the model to notice its abort: what comes after it was neither delivered
        // nor charged.
        const step = await untilCut(model.next(), cut);
        if (step === CUT || step.done) {
          modelDone = step !== CUT;
          break;
        }
        events.push(step.value);
        yield step.value;
      }
    } catch (error) {
      modelDone = true;
      if (!cut?.aborted) {
        if (signal.aborted) {
          clearTimeout(timer);
          throw error;
        }
        const failure =
          error instanceof ProviderFailure
            ? error
            : error instanceof MediaInputError
              ? new ProviderFailure(error.errorCode, 'an image of the conversation could not be used')
              : new ProviderFailure('upstream_failed', 'the model failed');
        if (error instanceof MediaInputError) {
          // The detail names no URL query and no token; the client sees the errorCode only.
          this.logger?.warn(
            { taskId: task.taskId, model: task.model, errorCode: error.errorCode, detail: error.detail },
            'an image of the conversation could not be used',
          );
        } else if (!(error instanceof ProviderFailure)) {
          this.logger?.error({ taskId: task.taskId, model: task.model, err: error }, 'text generation broke');
        }
        const ending = await conclude(async () => {
          await this.report(task, cause, ExecutionEventType.failed, {
            taskId: task.taskId,
            errorCode:
              error instanceof ProviderFailure || error instanceof MediaInputError
                ? error.errorCode
                : 'internal_error',
            finishedAt: this.clock.now().toISOString(),
            ...(await began()),
          });
          return { kind: 'failed', failure };
        });
        // A cut that came first reported the run: its ending stands.
        yield* closing(ending, events);
        return;
      }
    } finally {
      // The reader stopped early (nothing more is reported from here), or the run is over.
      clearTimeout(timer);
      cut?.removeEventListener('abort', onCut);
      if (model && !modelDone) {
        // Ends the model call; a cut one was aborted already and is not waited for.
        const closed = model.return?.();
        if (cut?.aborted) void closed?.catch(() => undefined);
        else await closed;
      }
    }
    if (cut?.aborted && final === undefined) onCut();
    const ending = await conclude(async () => {
      const { text, usage } = answerOf(events);
      await this.report(task, cause, ExecutionEventType.succeeded, {
        taskId: task.taskId,
        assets: [],
        text,
        usage,
        finishedAt: this.clock.now().toISOString(),
        ...(await began()),
      });
      return { kind: 'complete' };
    });
    yield* closing(ending, events);
  }

  /**
   * The report of a run cut at `events` (the stream's process stops): with something delivered, succeeded with
   * the usage seen so far (see `usageSoFar`) and the finish reason `length` unless the model had finished; with
   * nothing, failed as `service_interrupted` (uncharged).
   */
  private async reportCut(
    task: TaskCreatedPayload,
    cause: ExecutionCause,
    events: readonly ChatEvent[],
    began: () => Promise<{ startedAt?: string }>,
  ): Promise<Ending> {
    const seen = [...events];
    const delivered = seen.some(
      (e) => e.type === 'text' || e.type === 'reasoning' || e.type === 'tool_call' || e.type === 'finish',
    );
    const start = await began();
    const finishedAt = this.clock.now().toISOString();
    if (!delivered) {
      await this.report(task, cause, ExecutionEventType.failed, {
        taskId: task.taskId,
        errorCode: 'service_interrupted',
        finishedAt,
        ...start,
      });
      return {
        kind: 'failed',
        failure: new ProviderFailure('service_interrupted', 'the service stopped before the answer began'),
      };
    }
    const endings: ChatEvent[] = [];
    if (!seen.some((e) => e.type === 'usage')) endings.push({ type: 'usage', ...usageSoFar(seen) });
    if (!seen.some((e) => e.type === 'finish')) endings.push({ type: 'finish', reason: 'length' });
    const { text, usage } = answerOf([...seen, ...endings]);
    await this.report(task, cause, ExecutionEventType.succeeded, {
      taskId: task.taskId,
      assets: [],
      text,
      usage,
      finishedAt,
      ...start,
    });
    this.logger?.info(
      { taskId: task.taskId, model: task.model, outputTokens: usage.outputTokens },
      'text answer cut: the process is stopping',
    );
    return { kind: 'cut', endings };
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

const CUT = Symbol('cut');

/** `next` of the model's events, or CUT as soon as `cut` aborts (a model slow to notice its abort is not waited for). */
function untilCut<T>(next: Promise<T>, cut: AbortSignal | undefined): Promise<T | typeof CUT> {
  if (!cut) return next;
  if (cut.aborted) {
    next.catch(() => undefined);
    return Promise.resolve(CUT);
  }
  return new Promise((resolve, reject) => {
    const onCut = (): void => resolve(CUT);
    cut.addEventListener('abort', onCut, { once: true });
    next.then(
      (value) => {
        cut.removeEventListener('abort', onCut);
        resolve(value);
      },
      (error: unknown) => {
        cut.removeEventListener('abort', onCut);
        reject(error);
      },
    );
  });
}

/** How a run ended: its answer complete, cut (with the events that end the client's stream), or failed. */
type Ending =
  | { readonly kind: 'complete' }
  | { readonly kind: 'cut'; readonly endings: readonly ChatEvent[] }
  | { readonly kind: 'failed'; readonly failure: ProviderFailure };

/**
 * What the reader gets after the model's events: nothing more for a complete answer; for a cut one the usage
 * and finish it lacked (so the client's stream ends as a complete one does); a failure, thrown.
 */
function* closing(ending: Ending, events: readonly ChatEvent[]): Generator<ChatEvent> {
  if (ending.kind === 'failed') throw ending.failure;
  if (ending.kind !== 'cut') return;
  for (const event of ending.endings) {
    // The model's own usage or finish, when it came after the cut was reported, was not delivered either.
    if (!events.some((e) => e.type === event.type)) yield event;
  }
}

/**
 * The usage of an answer cut before the model reported its own: one output token per piece delivered (text,
 * reasoning, a tool call's name or argument fragment), since every piece a model streams holds at least one
 * token, and no input (the model counts it; the service cannot). A lower bound: the cut is the service's doing.
 */
export function usageSoFar(events: readonly ChatEvent[]): ChatUsage {
  let outputTokens = 0;
  let reasoningTokens = 0;
  for (const event of events) {
    if (event.type === 'text' && event.delta !== '') outputTokens += 1;
    else if (event.type === 'reasoning' && event.delta !== '') {
      outputTokens += 1;
      reasoningTokens += 1;
    } else if (event.type === 'tool_call' && (event.argumentsDelta !== '' || event.name)) outputTokens += 1;
  }
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens, reasoningTokens };
}

/** A request not started early: `run` calls the model itself. */
class NotStarted implements EarlyChat {
  constructor(readonly model: string) {}
  abort(): void {}
}

function hasServiceImage(request: ChatRequest): boolean {
  return chatImagesOf(request).some(({ url }) => url.startsWith('service://'));
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
