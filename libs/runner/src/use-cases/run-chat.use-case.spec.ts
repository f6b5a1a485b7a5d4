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
