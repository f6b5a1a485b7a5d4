import {
  BusinessCode,
  type ApiKeyPrincipal,
  type ChatEvent,
  type ChatExecutionPort,
  type EarlyChat,
  type TaskCreatedPayload,
} from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { CreateTaskCommand, CreateTaskUseCase } from './create-task.use-case';
import { OpenTextTaskUseCase } from './open-text-task.use-case';

const principal = { accountId: 'acc_1', keyId: 'key_1' } as ApiKeyPrincipal;
const valid = {
  model: 'acme/talk/chat',
  input: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
};

/** createTask as the use case sees it: validates (calling onValid), then accepts, refuses or replays. */
function createTask(outcome: 'accept' | 'refuse' | 'replay' | 'invalid') {
  const commands: CreateTaskCommand[] = [];
  const execute = async (command: CreateTaskCommand) => {
    commands.push(command);
    if (outcome === 'invalid') throw new DomainError(BusinessCode.InvalidRequest, 'request.invalid_field');
    command.onValid?.(valid);
    if (outcome === 'refuse') throw new DomainError(BusinessCode.InsufficientBalance, 'balance.insufficient');
    const task = { id: 'job_1', model: valid.model, estimatedE9: 1_000_000n };
    if (outcome === 'replay') return { task, replayed: true };
    const payload = {
      taskId: 'job_1',
      model: valid.model,
      input: valid.input,
    } as unknown as TaskCreatedPayload;
    return { task, replayed: false, created: { id: 'evt_1', correlationId: 'req_1', payload } };
  };
  return { useCase: { execute } as unknown as CreateTaskUseCase, commands };
}

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

async function open(useCase: OpenTextTaskUseCase) {
  return useCase.open({ principal, model: valid.model, input: valid.input, requestId: 'req_1' });
}

describe('OpenTextTaskUseCase: the model call beside the acceptance', () => {
  it('calls the model after acceptance the first time, beside it once the account was funded here', async () => {
    const accepting = createTask('accept');
    const port = chat();
    const useCase = new OpenTextTaskUseCase(accepting.useCase, port.port);
    const first = await open(useCase);
    for await (const _ of first.events!) void _;
    expect(accepting.commands[0]!.onValid).toBeUndefined();
    expect(port.started).toHaveLength(0);
    expect(port.runs).toEqual([undefined]);

    const second = await open(useCase);
    for await (const _ of second.events!) void _;
    expect(accepting.commands[1]!.onValid).toBeDefined();
    expect(port.started).toEqual([{ model: valid.model, aborted: false, abort: expect.any(Function) }]);
    expect(port.runs[1]).toBe(port.started[0]); // the run reads the call already made
  });

  it('aborts the early call when the hold is refused, and makes none for that account afterwards', async () => {
    const port = chat();
    const accepting = createTask('accept');
    const refusing = createTask('refuse');
    let current = accepting;
    const useCase = new OpenTextTaskUseCase(
      { execute: (c: CreateTaskCommand) => current.useCase.execute(c) } as unknown as CreateTaskUseCase,
      port.port,
    );
    await open(useCase); // funded
    current = refusing;
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InsufficientBalance });
    expect(port.started).toHaveLength(1);
    expect(port.started[0]!.aborted).toBe(true);
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InsufficientBalance });
    expect(refusing.commands[1]!.onValid).toBeUndefined();
    expect(port.started).toHaveLength(1);
    current = accepting;
    await open(useCase); // funded again: not early, since the last outcome was a refusal
    expect(port.started).toHaveLength(1);
    await open(useCase);
    expect(port.started).toHaveLength(2);
  });

  it('aborts the early call of a replayed Idempotency-Key, and runs nothing', async () => {
    const port = chat();
    const accepting = createTask('accept');
    const replaying = createTask('replay');
    let current = accepting;
    const useCase = new OpenTextTaskUseCase(
      { execute: (c: CreateTaskCommand) => current.useCase.execute(c) } as unknown as CreateTaskUseCase,
      port.port,
    );
    await open(useCase);
    current = replaying;
    const replay = await open(useCase);
    expect(replay.events).toBeNull();
    expect(port.started).toHaveLength(1);
    expect(port.started[0]!.aborted).toBe(true);
    expect(port.runs).toHaveLength(0);
  });

  it('does not forget a funded account for a refusal that is not about funds', async () => {
    const port = chat();
    const accepting = createTask('accept');
    const invalid = createTask('invalid');
    let current = accepting;
    const useCase = new OpenTextTaskUseCase(
      { execute: (c: CreateTaskCommand) => current.useCase.execute(c) } as unknown as CreateTaskUseCase,
      port.port,
    );
    await open(useCase);
    current = invalid;
    await expect(open(useCase)).rejects.toMatchObject({ code: BusinessCode.InvalidRequest });
    current = accepting;
    await open(useCase);
    expect(port.started).toHaveLength(1);
  });
});
