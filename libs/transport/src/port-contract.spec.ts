import {
  BusinessCode,
  MediaInputError,
  type AddCreditCommand,
  type ApiKeyAuthenticator,
  type FilesPort,
  type FundsPort,
  type HoldView,
  type HoldsPort,
  type MediaInputsPort,
  type MediaKind,
  type ReadyFile,
  type ResolvedMedia,
} from '@gen/contracts';
import { DomainError } from '@gen/core';
import { LocalObjectStorage } from '@gen/storage';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerPort } from './answer-port';
import { connectServiceCallServer } from './connect-service-call-server';
import { DirectServiceCall } from './direct-service-call';
import { portContract, type PortIo } from './port-contract';
import {
  API_KEY_AUTHENTICATOR_CONTRACT,
  CATALOG_MODELS_CONTRACT,
  FILES_CONTRACT,
  FUNDS_CONTRACT,
  HOLDS_CONTRACT,
  MEDIA_INPUTS_CONTRACT,
  MEDIA_INPUT_INLINE_BYTES,
  VERIFIER_TIMEOUT_MS,
} from './ports';
import { remotePort } from './remote-port';
import type { CallOptions, ServiceCall } from './service-call';
import { ServiceCallModule } from './service-call.module';
import { ServiceUnavailableError } from './service-call.errors';
import { ServiceHandlers } from './service-handlers';
import { TcpServiceCall } from './tcp-service-call';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the implementations behind the ports were given, as they received it. */
interface Received {
  credits: AddCreditCommand[];
  reported: unknown[];
  hanging: number;
  /** Ends the calls left hanging (when the test is over). */
  release: (() => void)[];
}

const HOLD: HoldView = { holdId: 'job_1', status: 'reserved', amount: '0.004' };

const FILE: ReadyFile = {
  fileId: 'fil_1',
  accountId: 'acc_1',
  uri: 'service://files/fil_1',
  state: 'ready',
  contentType: 'image/png',
  bytes: 3,
  sha256: 'ab'.repeat(32),
  width: 2,
  height: 1,
  objectKey: 'files/acc_1/fil_1',
  createdAt: new Date('2026-11-24T07:00:00.123Z'),
};

function implementations(received: Received) {
  const holds: HoldsPort = {
    async reserve(command) {
      if (command.amount === '1000') {
        throw new DomainError(BusinessCode.InsufficientBalance, 'balance.insufficient');
      }
      return { ...HOLD, holdId: command.holdId, amount: command.amount };
    },
    async check() {},
    async confirm(holdId) {
      return holdId === HOLD.holdId ? { ...HOLD, status: 'confirmed' } : null;
    },
    async settle() {
      throw new Error('connect failed: postgres://billing:hunter2@db-7/billing');
    },
    async release() {
      return null;
    },
  };
  const funds: FundsPort = {
    async addCredit(command) {
      received.credits.push(command);
      return { availableE9: command.amountE9 * 2n };
    },
  };
  const files: FilesPort = {
    async findReady(accountId, uri) {
      return accountId === FILE.accountId && uri === FILE.uri ? FILE : null;
    },
  };
  const media: MediaInputsPort = {
    async resolve(_accountId, value, kind, signal): Promise<ResolvedMedia> {
      if (value === 'hang') {
        received.hanging += 1;
        await new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve());
          received.release.push(resolve);
        });
        throw new MediaInputError('input_unavailable', 'gave up');
      }
      if (value.startsWith('refuse:')) throw new MediaInputError('input_invalid', value.slice(7));
      const size = Number(value);
      return { bytes: Buffer.alloc(size, size % 251), contentType: `${kind}/png`, width: 4, height: 3 };
    },
  };
  const apiKeys: ApiKeyAuthenticator = {
    async authenticate(key) {
      if (key === 'slow') await new Promise<void>((resolve) => received.release.push(resolve));
      return key === 'gts_good'
        ? {
            accountId: 'acc_1',
            keyId: 'key_1',
            language: null,
            group: 'default',
            priceMultiplier: '1',
            dailySpendCap: '10',
          }
        : null;
    },
  };
  const models = {
    modelIdOf: async (id: string) =>
      id === 'local/sketch-1' ? 'local/sketch' : id === 'nope/nope' ? null : id,
  };
  return { holds, funds, files, media, apiKeys, models };
}

function registerAll(handlers: ServiceHandlers, received: Received, io: PortIo): void {
  const impl = implementations(received);
  answerPort(handlers, HOLDS_CONTRACT, impl.holds, io);
  answerPort(handlers, FUNDS_CONTRACT, impl.funds, io);
  answerPort(handlers, FILES_CONTRACT, impl.files, io);
  answerPort(handlers, MEDIA_INPUTS_CONTRACT, impl.media, io);
  answerPort(handlers, API_KEY_AUTHENTICATOR_CONTRACT, impl.apiKeys, io);
  answerPort(handlers, CATALOG_MODELS_CONTRACT, impl.models, io);
}

/** A ServiceCall that keeps what went on the wire, to show what each codec sends. */
class Recording implements ServiceCall {
  readonly sent: { pattern: string; payload: unknown; options?: CallOptions }[] = [];
  readonly replies: unknown[] = [];
  constructor(private readonly inner: ServiceCall) {}
  async call<P, R>(service: string, pattern: string, payload: P, options?: CallOptions): Promise<R> {
    this.sent.push({ pattern, payload, ...(options ? { options } : {}) });
    const reply = await this.inner.call<P, R>(service, pattern, payload, options);
    this.replies.push(reply);
    return reply;
  }
}

interface Harness {
  readonly received: Received;
  readonly wire: Recording;
  readonly objects: LocalObjectStorage;
  readonly objectsDir: string;
  close(): Promise<void>;
}

function storage(): { objects: LocalObjectStorage; objectsDir: string } {
  const objectsDir = mkdtempSync(join(tmpdir(), 'gts-port-objects-'));
  return {
    objectsDir,
    objects: new LocalObjectStorage({
      directory: objectsDir,
      baseUrl: 'http://127.0.0.1:1',
      secret: randomBytes(32),
    }),
  };
}

async function direct(): Promise<Harness> {
  const received: Received = { credits: [], reported: [], hanging: 0, release: [] };
  const { objects, objectsDir } = storage();
  const handlers = new ServiceHandlers((error) => received.reported.push(error));
  registerAll(handlers, received, { objects });
  return {
    received,
    objects,
    objectsDir,
    wire: new Recording(new DirectServiceCall(handlers)),
    close: async () => rmSync(objectsDir, { recursive: true, force: true }),
  };
}

async function tcp(): Promise<Harness> {
  const received: Received = { credits: [], reported: [], hanging: 0, release: [] };
  const { objects, objectsDir } = storage();
  @Module({
    imports: [
      ServiceCallModule.distributed({ services: {}, reportUnexpected: (e) => received.reported.push(e) }),
    ],
    providers: [
      {
        provide: 'answers',
        useFactory: (handlers: ServiceHandlers) => registerAll(handlers, received, { objects }),
        inject: [ServiceHandlers],
      },
    ],
  })
  class PortsServerModule {}
  const app: INestApplication = await NestFactory.create(PortsServerModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.init();
  const { port } = await connectServiceCallServer(app, { host: '127.0.0.1', port: 0 });
  const address = { host: '127.0.0.1', port };
  const calls = new TcpServiceCall({
    services: { billing: address, media: address, accounts: address, catalog: address },
  });
  return {
    received,
    objects,
    objectsDir,
    wire: new Recording(calls),
    async close() {
      await calls.close();
      await app.close();
      rmSync(objectsDir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['DirectServiceCall', direct],
  ['TcpServiceCall', tcp],
])('contract ports through %s', (_adapter, start) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    for (const release of h.received.release) release();
    await h.close();
  });

  it('HOLDS_PORT: one pattern per method, arguments as an array, results and domain errors as they are', async () => {
    const holds = remotePort(h.wire, HOLDS_CONTRACT);
    const command = {
      holdId: 'job_9',
      accountId: 'acc_1',
      keyId: 'key_1',
      model: 'local/sketch',
      amount: '0.25',
      dailyCap: '10',
    };
    await expect(holds.reserve(command)).resolves.toEqual({ ...HOLD, holdId: 'job_9', amount: '0.25' });
    expect(h.wire.sent.at(-1)).toEqual({
      pattern: 'holds.reserve',
      payload: [command],
      options: { timeoutMs: 5000 },
    });
    await expect(holds.check(command)).resolves.toBeUndefined();
    await expect(holds.confirm('job_1')).resolves.toEqual({ ...HOLD, status: 'confirmed' });
    await expect(holds.confirm('job_2')).resolves.toBeNull();
    await expect(holds.release('job_1')).resolves.toBeNull();
    // A quiet finish (the tasks domain records the outcome itself) carries its options along.
    await expect(holds.release('job_1', { quiet: true })).resolves.toBeNull();
    expect(h.wire.sent.at(-1)).toMatchObject({
      pattern: 'holds.release',
      payload: ['job_1', { quiet: true }],
    });
    const refused = await holds.reserve({ ...command, amount: '1000' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      code: BusinessCode.InsufficientBalance,
      messageId: 'balance.insufficient',
    });
  });

  it("an implementation's unexpected failure arrives as a bare 500; its detail stays with the callee", async () => {
    const error = await remotePort(h.wire, HOLDS_CONTRACT)
      .settle('job_1', '0.1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: BusinessCode.ServerError, messageId: 'server.error' });
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(h.received.reported).toHaveLength(1);
  });

  it('CATALOG_MODELS: an id in, the exact id (an alias resolved) or null out', async () => {
    const models = remotePort(h.wire, CATALOG_MODELS_CONTRACT);
    expect(await models.modelIdOf('local/sketch-1')).toBe('local/sketch');
    expect(await models.modelIdOf('nope/nope')).toBeNull();
    expect(h.wire.sent.at(-1)).toMatchObject({ pattern: 'models.modelIdOf', payload: ['nope/nope'] });
  });

  it('FUNDS_PORT: bigint nano-USD and the expiry cross exactly, as decimal digits and ISO text', async () => {
    const funds = remotePort(h.wire, FUNDS_CONTRACT);
    // Far beyond 2^53: a float on the way would change it.
    const amountE9 = 123_456_789_012_345_678_901n;
    const expiresAt = new Date('2027-01-02T03:04:05.678Z');
    const result = await funds.addCredit({
      accountId: 'acc_1',
      kind: 'grant',
      amountE9,
      model: 'm',
      expiresAt,
    });
    expect(result).toEqual({ availableE9: amountE9 * 2n });
    expect(typeof result.availableE9).toBe('bigint');
    expect(h.received.credits.at(-1)).toEqual({
      accountId: 'acc_1',
      kind: 'grant',
      amountE9,
      model: 'm',
      expiresAt,
    });
    expect(h.received.credits.at(-1)!.expiresAt).toBeInstanceOf(Date);
    expect(h.wire.sent.at(-1)!.payload).toEqual([
      {
        accountId: 'acc_1',
        kind: 'grant',
        amountE9: '123456789012345678901',
        model: 'm',
        expiresAt: '2027-01-02T03:04:05.678Z',
      },
    ]);
    expect(h.wire.replies.at(-1)).toEqual({ result: { availableE9: '246913578024691357802' } });
    // Optional fields left out stay out.
    await funds.addCredit({ accountId: 'acc_1', kind: 'wallet', amountE9: 1n });
    expect(h.received.credits.at(-1)).toStrictEqual({ accountId: 'acc_1', kind: 'wallet', amountE9: 1n });
  });

  it("FILES_PORT: a ready file's createdAt comes back a Date; an unknown file is null", async () => {
    const files = remotePort(h.wire, FILES_CONTRACT);
    const found = await files.findReady('acc_1', FILE.uri);
    expect(found).toEqual(FILE);
    expect(found!.createdAt).toBeInstanceOf(Date);
    await expect(files.findReady('acc_2', FILE.uri)).resolves.toBeNull();
  });

  it('MEDIA_INPUTS: small inputs come inline, large ones through object storage, which is left empty', async () => {
    const inputs = remotePort(h.wire, MEDIA_INPUTS_CONTRACT, { io: { objects: h.objects } });
    const signal = new AbortController().signal;
    const small = await inputs.resolve('acc_1', '1000', 'image', signal);
    expect(small).toEqual({
      bytes: Buffer.alloc(1000, 1000 % 251),
      contentType: 'image/png',
      width: 4,
      height: 3,
    });
    expect(h.wire.sent.at(-1)!.payload).toEqual(['acc_1', '1000', 'image']);
    expect(JSON.stringify(h.wire.replies.at(-1))).toContain('"base64"');

    const size = MEDIA_INPUT_INLINE_BYTES + 1;
    const large = await inputs.resolve('acc_1', String(size), 'video', signal);
    expect(large.bytes.equals(Buffer.alloc(size, size % 251))).toBe(true);
    expect(large.contentType).toBe('video/png');
    const reply = JSON.stringify(h.wire.replies.at(-1));
    expect(reply).toContain('"transitKey":"transit/media-inputs/');
    expect(reply.length).toBeLessThan(1000);
    const { transitKey } = (h.wire.replies.at(-1) as { result: { transitKey: string } }).result;
    // Read and deleted by the caller.
    await expect(h.objects.head(transitKey)).resolves.toBeNull();
  });

  it("MEDIA_INPUTS: the port's own failure crosses as a MediaInputError with its code", async () => {
    const inputs = remotePort(h.wire, MEDIA_INPUTS_CONTRACT, { io: { objects: h.objects } });
    const error = await inputs
      .resolve('acc_1', 'refuse:not a png', 'image' as MediaKind, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaInputError);
    expect(error).toMatchObject({ errorCode: 'input_invalid', detail: 'not a png' });
  });

  it('MEDIA_INPUTS: the caller stops waiting when its signal aborts (the signal does not travel)', async () => {
    const inputs = remotePort(h.wire, MEDIA_INPUTS_CONTRACT, { io: { objects: h.objects } });
    const controller = new AbortController();
    const pending = inputs.resolve('acc_1', 'hang', 'image', controller.signal).catch((e: unknown) => e);
    while (h.received.hanging === 0) await sleep(5);
    const started = Date.now();
    controller.abort(new Error('runner stopping'));
    expect(await pending).toEqual(new Error('runner stopping'));
    expect(Date.now() - started).toBeLessThan(500);
    // An aborted signal: nothing is sent.
    const sent = h.wire.sent.length;
    await expect(inputs.resolve('acc_1', '1', 'image', controller.signal)).rejects.toThrow('runner stopping');
    expect(h.wire.sent).toHaveLength(sent);
  });

  it('the credential verifiers wait 2 s at most, and a slow one is a 503 (timeout)', async () => {
    const apiKeys = remotePort(h.wire, API_KEY_AUTHENTICATOR_CONTRACT);
    await expect(apiKeys.authenticate('gts_good')).resolves.toMatchObject({ accountId: 'acc_1' });
    await expect(apiKeys.authenticate('gts_bad')).resolves.toBeNull();
    expect(h.wire.sent.at(-1)!.options).toEqual({ timeoutMs: VERIFIER_TIMEOUT_MS });
    expect(VERIFIER_TIMEOUT_MS).toBe(2000);
    const error = await remotePort(h.wire, API_KEY_AUTHENTICATOR_CONTRACT, { timeoutMs: 100 })
      .authenticate('slow')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ code: BusinessCode.TemporarilyUnavailable, reason: 'timeout' });
  });
});

describe('answerPort', () => {
  it('refuses an implementation that lacks a method of the contract', () => {
    const contract = portContract<{ a(): Promise<void>; b(): Promise<void> }>({
      token: Symbol('X'),
      service: 'x',
      port: 'x',
      methods: { a: {}, b: {} },
    });
    expect(() => answerPort(new ServiceHandlers(), contract, { a: async () => undefined } as never)).toThrow(
      'answerPort: the implementation of x.x lacks b',
    );
  });

  it('refuses arguments that are not an array (a caller of another build) as a bare 500', async () => {
    const handlers = new ServiceHandlers();
    answerPort(
      handlers,
      HOLDS_CONTRACT,
      implementations({ credits: [], reported: [], hanging: 0, release: [] }).holds,
    );
    const calls = new DirectServiceCall(handlers);
    await expect(calls.call('billing', 'holds.confirm', { holdId: 'job_1' })).rejects.toMatchObject({
      code: BusinessCode.ServerError,
    });
  });
});
