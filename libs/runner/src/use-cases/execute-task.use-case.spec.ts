import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BusinessCode,
  ExecutionEventType,
  MediaInputError,
  type ExecutionEventName,
  type MediaInputsPort,
  type MediaKind,
  type MediaTask,
  type ModelRoutesPort,
  type ProviderPort,
  type ResolvedMedia,
  type TaskCreatedPayload,
  type TypedEvent,
} from '@gen/contracts';
import { DomainError, systemClock } from '@gen/core';
import { InProcessEventBus, subscribeEvents } from '@gen/messaging';
import { LocalObjectStorage } from '@gen/storage';
import { ExecuteTaskUseCase, ExecutionAborted, MediaInputsUnavailable } from './execute-task.use-case';
import { RunChatUseCase } from './run-chat.use-case';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108020000009077533e0000000c4944415478da63f8cfc0000003010100c9fe92ef0000000049454e44ae426082',
  'hex',
);
const cause = { causationId: 'evt_1', correlationId: 'req_1' };
const task = (input: Record<string, unknown>): TaskCreatedPayload => ({
  taskId: 'job_media',
  accountId: 'acc_owner',
  keyId: 'key_owner',
  model: 'test/edit',
  input,
  estimatedCost: '0.004',
  createdAt: new Date().toISOString(),
  deadlineAt: new Date(Date.now() + 60_000).toISOString(),
});

/** A model with two media fields; the provider answers one PNG and records what it was given. */
function setup(resolve: MediaInputsPort['resolve']) {
  const dir = mkdtempSync(join(tmpdir(), 'gts-execute-'));
  const storage = new LocalObjectStorage({
    directory: dir,
    baseUrl: 'http://127.0.0.1',
    secret: Buffer.alloc(32, 1),
  });
  const bus = new InProcessEventBus();
  const reports: TypedEvent<ExecutionEventName>[] = [];
  const generated: MediaTask[] = [];
  const provider = {
    generate: async (media: MediaTask) => {
      generated.push(media);
      return { status: 'succeeded', files: [{ bytes: PNG }], assets: 'ready' };
    },
  } as unknown as ProviderPort;
  const routes: ModelRoutesPort = {
    routeFor: (model) => ({
      model,
      modality: 'image',
      bindings: [],
      mediaFields: [
        { field: 'image', kind: 'image' },
        { field: 'mask', kind: 'image' },
      ],
    }),
  };
  const asked: { accountId: string; value: string; kind: MediaKind }[] = [];
  const media: MediaInputsPort = {
    resolve: (accountId, value, kind, signal) => {
      asked.push({ accountId, value, kind });
      return resolve(accountId, value, kind, signal);
    },
  };
  const chat = new RunChatUseCase(bus, systemClock, provider);
  const useCase = new ExecuteTaskUseCase(bus, storage, systemClock, provider, routes, chat, media);
  return {
    useCase,
    generated,
    asked,
    reports,
    // Through the event map's check, as the tasks service reads them: a report it would skip never arrives.
    subscribe: () =>
      subscribeEvents(
        bus,
        { group: 'test', types: Object.values(ExecutionEventType) },
        async (event) => void reports.push(event),
      ),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const resolved = (value: string): ResolvedMedia => ({
  bytes: Buffer.from(value),
  contentType: 'image/png',
  width: 1,
  height: 1,
});

describe('ExecuteTaskUseCase: media inputs', () => {
  it("reads each media field the input fills, for the task's account, before the model runs", async () => {
    const run = setup(async (_account, value) => resolved(value));
    await run.subscribe();
    const input = { prompt: 'x', image: 'service://files/fil_a' };
    expect(await run.useCase.execute(task(input), cause, new AbortController().signal)).toBe('succeeded');
    expect(run.asked).toEqual([{ accountId: 'acc_owner', value: 'service://files/fil_a', kind: 'image' }]);
    expect(run.generated).toHaveLength(1);
    expect(run.generated[0]!.input).toEqual(input);
    expect(run.generated[0]!.media).toEqual({ image: resolved('service://files/fil_a') });
    expect(run.reports.map((r) => r.type)).toEqual([
      ExecutionEventType.started,
      ExecutionEventType.succeeded,
    ]);
    run.close();
  });

  it('gives a model without media in its input no media at all', async () => {
    const run = setup(async () => {
      throw new Error('nothing to read');
    });
    expect(await run.useCase.execute(task({ prompt: 'x' }), cause, new AbortController().signal)).toBe(
      'succeeded',
    );
    expect(run.generated[0]).not.toHaveProperty('media');
    run.close();
  });

  it.each(['input_unavailable', 'input_invalid'] as const)(
    'fails the task with %s when a media input cannot be used; the model never runs',
    async (errorCode) => {
      const run = setup(async (_account, value) => {
        if (value.endsWith('bad')) throw new MediaInputError(errorCode, 'for the log');
        return resolved(value);
      });
      await run.subscribe();
      const input = { prompt: 'x', image: 'https://a.example/ok', mask: 'https://a.example/bad' };
      expect(await run.useCase.execute(task(input), cause, new AbortController().signal)).toBe('failed');
      expect(run.generated).toEqual([]);
      expect(
        run.reports.map((r) => [r.type, 'errorCode' in r.payload ? r.payload.errorCode : undefined]),
      ).toEqual([
        [ExecutionEventType.started, undefined],
        [ExecutionEventType.failed, errorCode],
      ]);
      run.close();
    },
  );

  it('gives the task back when the runner stops while an input is being read', async () => {
    const run = setup(
      (_account, _value, _kind, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const stopping = new AbortController();
    const running = run.useCase.execute(
      task({ prompt: 'x', image: 'https://a.example/slow' }),
      cause,
      stopping.signal,
    );
    setTimeout(() => stopping.abort(new Error('stopping')), 20);
    await expect(running).rejects.toBeInstanceOf(ExecutionAborted);
    expect(run.generated).toEqual([]);
    run.close();
  });

  it('puts the task off, unfailed, when the media app does not answer (503 50301)', async () => {
    const run = setup(async () => {
      throw new DomainError(BusinessCode.TemporarilyUnavailable, 'server.unavailable');
    });
    await run.subscribe();
    const error = await run.useCase
      .execute(task({ prompt: 'x', image: 'service://files/fil_a' }), cause, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaInputsUnavailable);
    expect(error).toMatchObject({ field: 'image' });
    expect(run.generated).toEqual([]);
    // Started only: no failure is reported, so the task runs again when its lease lapses.
    expect(run.reports.map((r) => r.type)).toEqual([ExecutionEventType.started]);
    run.close();
  });

  it('fails with internal_error when reading breaks in an unexpected way', async () => {
    const run = setup(async () => {
      throw new Error('storage down');
    });
    await run.subscribe();
    const outcome = await run.useCase.execute(
      task({ prompt: 'x', image: 'service://files/fil_a' }),
      cause,
      new AbortController().signal,
    );
    expect(outcome).toBe('failed');
    expect(run.reports.at(-1)!.payload).toMatchObject({ errorCode: 'internal_error' });
    run.close();
  });
});
