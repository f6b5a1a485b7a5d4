import {
  BusinessCode,
  type AcceptedTextTask,
  type ApiKeyPrincipal,
  type CatalogPort,
  type ChatEvent,
  type ChatExecutionPort,
  type EarlyChat,
  type OpenTextTaskCommand,
  type TaskCreatedPayload,
  type TextTaskIntakePort,
} from '@gen/contracts';
import { DomainError } from '@gen/core';
import { OpenTextTaskUseCase } from './open-text-task.use-case';

const principal = { accountId: 'acc_1', keyId: 'key_1', priceMultiplier: '1' } as ApiKeyPrincipal;
const valid = {
  model: 'acme/talk/chat',
  input: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
};

type Outcome = 'accept' | 'refuse' | 'replay' | 'invalid';

/** The tasks domain's acceptance as the use case sees it (in process or over the service transport). */
function intake(outcome: () => Outcome) {
  const commands: OpenTextTaskCommand[] = [];
  const port: TextTaskIntakePort = {
    accept: async (command): Promise<AcceptedTextTask> => {
      commands.push(command);
      const now = outcome();
      if (now === 'invalid') throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field');
      if (now === 'refuse') throw new DomainError(BusinessCode.InsufficientBalance, 'balance.insufficient');
      const base = { taskId: 'job_1', model: valid.model, estimatedCost: '0.001' };
      if (now === 'replay') return { ...base, run: null };
      const payload = {
        taskId: 'job_1',
        model: valid.model,
        input: valid.input,
      } as unknown as TaskCreatedPayload;
      return { ...base, run: { payload, cause: { causationId: 'evt_1', correlationId: 'req_1' } } };
    },
    renew: async (_owner, taskIds) => [...taskIds],
  };
  return { port, commands };
}

/** The catalog: a text model takes the valid input; anything else it refuses; `acme/pics` is an image model. */
const catalog = {
  prepareTask: (model: string, input: unknown) => {
    if (model === 'acme/pics') return { model, modality: 'image', input };
    if (model !== valid.model) throw new DomainError(BusinessCode.NotFound, 'model.not_found');
    return { model, modality: 'text', input: input as Record<string, unknown> };
  },
} as unknown as CatalogPort;

/** The chat execution port, recording early starts, their aborts and what each run was given. */
function chat() {
  const started: { model: string; aborted: boolean }[] = [];
  const runs: (EarlyChat | undefined)[] = [];
  const port: ChatExecutionPort = {
    start(model) {
      const early = { model, aborted: false, abort: () => void (early.aborted = true) };
      started.push(early);
      return early;
    },
    async *run(_task, _cause, _signal, early): AsyncIterable<ChatEvent> {
      runs.push(early);
    },
  };
  return { port, started, runs };
}

async function open(useCase: OpenTextTaskUseCase, model = valid.model) {
  return useCase.open({ principal, model, input: valid.input, requestId: 'req_1' });
}

describe('OpenTextTaskUseCase: the model call beside the acceptance', () => {
  it('calls the model after acceptance the first time, beside it once the account was funded here', async () => {
    const accepting = intake(() => 'accept');
    const port = chat();
    const useCase = new OpenTextTaskUseCase(accepting.port, catalog, port.port);
    const first = await open(useCase);
    expect(first).toMatchObject({ taskId: 'job_1', model: valid.model, estimatedCost: '0.001' });
    for await (const _ of first.events!) void _;
    expect(port.started).toHaveLength(0);
    expect(port.runs).toEqual([undefined]);

    const second = await open(useCase);
    for await (const _ of second.events!) void _;
    expect(port.started).toEqual([{ model: valid.model, aborted: false, abort: expect.any(Function) }]);
    expect(port.runs[1]).toBe(port.started[0]); // the run reads the call already made
    expect(accepting.commands).toHaveLength(2);
  });

  it('aborts the early call when the hold is refused, and makes none for that account afterwards', async () => {
    const port = chat();
    let now: Outcome = 'accept';
    const useCase = new OpenTextTaskUseCase(intake(() => now).port, catalog, port.port);
    await open(useCase); // funded
    now = 'refuse';
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InsufficientBalance });
    expect(port.started).toHaveLength(1);
    expect(port.started[0]!.aborted).toBe(true);
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InsufficientBalance });
    expect(port.started).toHaveLength(1);
    now = 'accept';
    await open(useCase); // funded again: not early, since the last outcome was a refusal
    expect(port.started).toHaveLength(1);
    await open(useCase);
    expect(port.started).toHaveLength(2);
  });

  it('aborts the early call of a replayed Idempotency-Key, and runs nothing', async () => {
    const port = chat();
    let now: Outcome = 'accept';
    const useCase = new OpenTextTaskUseCase(intake(() => now).port, catalog, port.port);
    await open(useCase);
    now = 'replay';
    const replay = await open(useCase);
    expect(replay.events).toBeNull();
    expect(port.started).toHaveLength(1);
    expect(port.started[0]!.aborted).toBe(true);
    expect(port.runs).toHaveLength(0); // no run was read
  });

  it('does not forget a funded account for a refusal that is not about funds', async () => {
    const port = chat();
    let now: Outcome = 'accept';
    const useCase = new OpenTextTaskUseCase(intake(() => now).port, catalog, port.port);
    await open(useCase);
    now = 'invalid';
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InvalidRequest });
    now = 'accept';
    await open(useCase);
    expect(port.started).toHaveLength(2);
    expect(port.started[0]!.aborted).toBe(true);
  });

  it('makes no early call for a request the catalog refuses or a model that is not text: the acceptance answers', async () => {
    const port = chat();
    const accepting = intake(() => 'invalid');
    let funded: Outcome = 'accept';
    const useCase = new OpenTextTaskUseCase(
      {
        ...accepting.port,
        accept: (c) =>
          funded === 'accept' ? intake(() => 'accept').port.accept(c) : accepting.port.accept(c),
      },
      catalog,
      port.port,
    );
    await open(useCase); // funded
    funded = 'invalid';
    await expect(open(useCase, 'acme/unknown')).rejects.toMatchObject({ code: BusinessCode.InvalidRequest });
    await expect(open(useCase, 'acme/pics')).rejects.toMatchObject({ code: BusinessCode.InvalidRequest });
    expect(port.started).toEqual([]);
    expect(accepting.commands.map((c) => c.model)).toEqual(['acme/unknown', 'acme/pics']);
  });
});
