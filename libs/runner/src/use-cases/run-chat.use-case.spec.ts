import {
  ExecutionEventType,
  type ChatEvent,
  type ChatRequest,
  type ExecutionEventName,
  type ProviderPort,
  type TaskCreatedPayload,
  type TypedEvent,
} from '@gen/contracts';
import { systemClock } from '@gen/core';
import { InProcessEventBus, subscribeEvents } from '@gen/messaging';
import { RunChatUseCase, STARTED_REPORT_AFTER_MS } from './run-chat.use-case';

const MODEL = 'acme/talk/chat';
const input = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 };
const task = { taskId: 'job_1', model: MODEL, input } as unknown as TaskCreatedPayload;
const cause = { causationId: 'evt_1', correlationId: 'req_1' };

/** A provider whose model answers "Hello" once `release` is called; it records each call and its signal. */
function provider() {
  const calls: { model: string; request: ChatRequest; signal: AbortSignal; firstRead: boolean }[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const port = {
    chat(model: string, request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatEvent> {
      const call = { model, request, signal, firstRead: false };
      calls.push(call);
      return (async function* () {
        call.firstRead = true;
        await Promise.race([
          released,
          new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        ]);
        yield { type: 'text', delta: 'Hello' } as ChatEvent;
        yield { type: 'finish', reason: 'stop' } as ChatEvent;
      })();
    },
  } as unknown as ProviderPort;
  return { port, calls, release };
}

/** The run's reports, through the event map's check as the tasks service reads them. */
async function reports(bus: InProcessEventBus): Promise<TypedEvent<ExecutionEventName>[]> {
  const seen: TypedEvent<ExecutionEventName>[] = [];
  await subscribeEvents(
    bus,
    { group: 'test', types: Object.values(ExecutionEventType) },
    async (event) => void seen.push(event),
  );
  return seen;
}

describe('RunChatUseCase: a model call opened before the task exists', () => {
  it('goes out at start, and the run reads that call instead of calling again', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const upstream = provider();
    const useCase = new RunChatUseCase(bus, systemClock, upstream.port);
    const early = useCase.start(MODEL, input);
    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0]!.firstRead).toBe(true); // the request is under way already
    expect(seen).toHaveLength(0); // nothing reported before the task exists
    upstream.release();
    const events: ChatEvent[] = [];
    for await (const event of useCase.run(task, cause, new AbortController().signal, early))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual(['text', 'finish']);
    expect(upstream.calls).toHaveLength(1);
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.succeeded]);
    await bus.close();
  });

  it('abort ends the call and reports nothing', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const upstream = provider();
    const useCase = new RunChatUseCase(bus, systemClock, upstream.port);
    const early = useCase.start(MODEL, input);
    early.abort();
    early.abort(); // idempotent
    expect(upstream.calls[0]!.signal.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(0);
    await bus.close();
  });

  it('a call opened for another model is aborted, and the run calls its own', async () => {
    const bus = new InProcessEventBus();
    await reports(bus);
    const upstream = provider();
    const useCase = new RunChatUseCase(bus, systemClock, upstream.port);
    const early = useCase.start('acme/other/chat', input);
    upstream.release();
    const events: ChatEvent[] = [];
    for await (const event of useCase.run(task, cause, new AbortController().signal, early))
      events.push(event);
    expect(upstream.calls.map((c) => c.model)).toEqual(['acme/other/chat', MODEL]);
    expect(upstream.calls[0]!.signal.aborted).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['text', 'finish']);
    await bus.close();
  });
});

describe('RunChatUseCase: the started report', () => {
  async function runWith(thinkMs: number, fail = false) {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const upstream = provider();
    const useCase = new RunChatUseCase(bus, systemClock, upstream.port);
    setTimeout(() => upstream.release(), thinkMs);
    const before = Date.now();
    const run = useCase.run(task, cause, new AbortController().signal);
    let error: unknown;
    try {
      for await (const event of run) if (fail) throw Object.assign(new Error('broke'), { event });
    } catch (e) {
      error = e;
    }
    await bus.close();
    return { seen, before, error };
  }

  it('a quick answer is not reported started: its final report says when it began', async () => {
    const { seen, before } = await runWith(0);
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.succeeded]);
    const startedAt = Date.parse(seen[0]!.payload.startedAt ?? '');
    expect(startedAt).toBeGreaterThanOrEqual(before - 5);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
  });

  it(`an answer still running after ${STARTED_REPORT_AFTER_MS} ms is reported started, and its final report does not repeat it`, async () => {
    const { seen } = await runWith(STARTED_REPORT_AFTER_MS + 300);
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.started, ExecutionEventType.succeeded]);
    expect(seen[0]!.payload).toMatchObject({ taskId: 'job_1', startedAt: expect.any(String) });
    expect(seen[1]!.payload).not.toHaveProperty('startedAt');
  });
});

describe('RunChatUseCase: a streamed answer cut because its process stops', () => {
  /**
   * A model that streams `pieces`, then waits (for `more`, or the abort of its call) before it finishes with
   * its own usage and finish.
   */
  function slowModel(pieces: ChatEvent[]) {
    let more: () => void = () => undefined;
    const rest = new Promise<void>((resolve) => (more = resolve));
    const calls: AbortSignal[] = [];
    const port = {
      chat(_model: string, _request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatEvent> {
        calls.push(signal);
        return (async function* () {
          yield* pieces;
          await Promise.race([
            rest,
            new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
          ]);
          yield { type: 'text', delta: ' and more' } as ChatEvent;
          yield { type: 'usage', inputTokens: 9, cachedInputTokens: 0, outputTokens: 9, reasoningTokens: 0 };
          yield { type: 'finish', reason: 'stop' } as ChatEvent;
        })();
      },
    } as unknown as ProviderPort;
    return { port, calls, more };
  }

  const hello: ChatEvent[] = [
    { type: 'reasoning', delta: 'Thinking' },
    { type: 'text', delta: 'Hello' },
    { type: 'text', delta: ' there' },
  ];

  it('with something delivered: reported succeeded by the usage seen, and the reader gets usage and finish', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const model = slowModel(hello);
    const useCase = new RunChatUseCase(bus, systemClock, model.port);
    const cut = new AbortController();
    let reported = 0;
    const events: ChatEvent[] = [];
    const control = { cut: cut.signal, reported: () => void (reported += 1) };
    for await (const event of useCase.run(task, cause, new AbortController().signal, undefined, control)) {
      events.push(event);
      if (events.length === hello.length) cut.abort();
    }
    expect(model.calls[0]!.aborted).toBe(true); // the model call stopped
    expect(events).toEqual([
      ...hello,
      { type: 'usage', inputTokens: 0, cachedInputTokens: 0, outputTokens: 3, reasoningTokens: 1 },
      { type: 'finish', reason: 'length' },
    ]);
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.succeeded]);
    expect(seen[0]!.payload).toMatchObject({
      text: { content: 'Hello there', reasoning: 'Thinking', finishReason: 'length' },
      usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 3, reasoningTokens: 1 },
    });
    expect(reported).toBe(1);
    await bus.close();
  });

  it('is reported at the cut even while nobody reads; the reader then gets the same end', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const model = slowModel(hello);
    const useCase = new RunChatUseCase(bus, systemClock, model.port);
    const cut = new AbortController();
    let reported = 0;
    const control = { cut: cut.signal, reported: () => void (reported += 1) };
    const run = useCase
      .run(task, cause, new AbortController().signal, undefined, control)
      [Symbol.asyncIterator]();
    expect((await run.next()).value).toEqual(hello[0]);
    cut.abort(); // the reader holds the first piece and reads no further
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.succeeded]);
    expect(seen[0]!.payload).toMatchObject({ text: { content: '', reasoning: 'Thinking' } });
    expect(reported).toBe(1);
    const rest: ChatEvent[] = [];
    for (let step = await run.next(); !step.done; step = await run.next()) rest.push(step.value);
    // What the model sent after the cut is neither delivered nor charged.
    expect(rest).toEqual([
      { type: 'usage', inputTokens: 0, cachedInputTokens: 0, outputTokens: 1, reasoningTokens: 1 },
      { type: 'finish', reason: 'length' },
    ]);
    expect(seen).toHaveLength(1);
    await bus.close();
  });

  it('with nothing delivered: reported failed, service_interrupted, and the reader gets that failure', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const model = slowModel([]);
    const useCase = new RunChatUseCase(bus, systemClock, model.port);
    const cut = new AbortController();
    let reported = 0;
    const control = { cut: cut.signal, reported: () => void (reported += 1) };
    setTimeout(() => cut.abort(), 20);
    const events: ChatEvent[] = [];
    await expect(
      (async () => {
        for await (const event of useCase.run(task, cause, new AbortController().signal, undefined, control))
          events.push(event);
      })(),
    ).rejects.toMatchObject({ name: 'ProviderFailure', errorCode: 'service_interrupted' });
    expect(events).toEqual([]);
    expect(seen.map((e) => [e.type, (e.payload as { errorCode?: string }).errorCode])).toEqual([
      [ExecutionEventType.failed, 'service_interrupted'],
    ]);
    expect(reported).toBe(1);
    await bus.close();
  });

  it('an answer complete before the cut is reported once, as it is', async () => {
    const bus = new InProcessEventBus();
    const seen = await reports(bus);
    const model = slowModel(hello);
    model.more();
    const useCase = new RunChatUseCase(bus, systemClock, model.port);
    const cut = new AbortController();
    let reported = 0;
    const control = { cut: cut.signal, reported: () => void (reported += 1) };
    const events: ChatEvent[] = [];
    for await (const event of useCase.run(task, cause, new AbortController().signal, undefined, control))
      events.push(event);
    cut.abort();
    expect(events.map((e) => e.type)).toEqual(['reasoning', 'text', 'text', 'text', 'usage', 'finish']);
    expect(seen.map((e) => e.type)).toEqual([ExecutionEventType.succeeded]);
    expect(seen[0]!.payload).toMatchObject({
      text: { content: 'Hello there and more', finishReason: 'stop' },
      usage: { inputTokens: 9, outputTokens: 9 },
    });
    expect(reported).toBe(1);
    await bus.close();
  });
});
