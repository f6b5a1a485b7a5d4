import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createServer, type AddressInfo } from 'node:net';
import { connectServiceCallServer } from './connect-service-call-server';
import { DirectServiceCall } from './direct-service-call';
import { NotJsonSafeError } from './json-safe';
import { SERVICE_CALL, type ServiceCall } from './service-call';
import { ServiceUnavailableError, UnknownServiceCallError } from './service-call.errors';
import { ServiceCallModule } from './service-call.module';
import { ServiceHandlers } from './service-handlers';
import { TcpServiceCall } from './tcp-service-call';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the example billing service saw: payloads kept, unexpected errors reported, calls left hanging. */
interface Seen {
  readonly received: unknown[];
  readonly reported: unknown[];
  readonly hanging: unknown[];
}
const nothingSeen = (): Seen => ({ received: [], reported: [], hanging: [] });

const refusal = () =>
  new DomainError(BusinessCode.RateLimited, 'rate.limited', { seconds: 7 }, { 'retry-after': '7' });

function registerExamples(handlers: ServiceHandlers, seen: Seen): void {
  const stored = { balance: '25.000000000', holds: [{ id: 'hold_1', amount: '1.5' }] };
  handlers.register('billing', 'keep', async (payload: unknown) => {
    seen.received.push(payload);
    return stored;
  });
  handlers.register('billing', 'double', async ({ n }: { n: number }) => {
    await sleep(n % 7);
    return { n: n * 2 };
  });
  handlers.register('billing', 'nothing', async () => undefined);
  handlers.register('billing', 'refuse', async () => {
    throw refusal();
  });
  handlers.register('billing', 'database down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
  });
  handlers.register('billing', 'crash', async () => {
    throw new Error('connect failed: postgres://billing:hunter2@db-7/billing');
  });
  handlers.register('billing', 'date', async () => ({ at: new Date(0) }));
  handlers.register('billing', 'hang', (payload: unknown) => {
    seen.hanging.push(payload);
    return new Promise(() => undefined);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Nest app hosting the example billing service behind the TCP listener, as a service process would. */
async function startBillingServer(
  port: number,
  seen: Seen,
): Promise<{ app: INestApplication; port: number }> {
  @Module({
    imports: [
      ServiceCallModule.distributed({ services: {}, reportUnexpected: (e) => seen.reported.push(e) }),
    ],
    providers: [
      {
        provide: 'examples',
        useFactory: (handlers: ServiceHandlers) => registerExamples(handlers, seen),
        inject: [ServiceHandlers],
      },
    ],
  })
  class BillingServerModule {}
  const app = await NestFactory.create(BillingServerModule, new FastifyAdapter(), { logger: false });
  await app.init();
  const bound = await connectServiceCallServer(app, { host: '127.0.0.1', port });
  return { app, port: bound.port };
}

interface Harness extends Seen {
  readonly calls: ServiceCall;
  close(): Promise<void>;
}

/** The embedded wiring: the same handlers, called in process through SERVICE_CALL. */
async function direct(): Promise<Harness> {
  const seen = nothingSeen();
  @Module({
    imports: [ServiceCallModule.embedded({ reportUnexpected: (e) => seen.reported.push(e) })],
    providers: [
      {
        provide: 'examples',
        useFactory: (handlers: ServiceHandlers) => registerExamples(handlers, seen),
        inject: [ServiceHandlers],
      },
    ],
  })
  class EmbeddedModule {}
  const app = await NestFactory.createApplicationContext(EmbeddedModule, { logger: false });
  const calls = app.get<ServiceCall>(SERVICE_CALL);
  expect(calls).toBeInstanceOf(DirectServiceCall);
  return { ...seen, calls, close: () => app.close() };
}

async function tcp(): Promise<Harness> {
  const seen = nothingSeen();
  const server = await startBillingServer(0, seen);
  const calls = new TcpServiceCall({ services: { billing: { host: '127.0.0.1', port: server.port } } });
  return {
    ...seen,
    calls,
    async close() {
      await calls.close();
      await server.app.close();
    },
  };
}

describe.each([
  ['DirectServiceCall', direct],
  ['TcpServiceCall', tcp],
])('%s', (_adapter, start) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.close());

  it('passes copies both ways: neither side sees the other change its objects', async () => {
    const payload = { amount: '12.500000000', items: [{ id: 'a' }], note: undefined };
    const first = await h.calls.call<typeof payload, { balance: string; holds: { id: string }[] }>(
      'billing',
      'keep',
      payload,
    );
    expect(first).toStrictEqual({ balance: '25.000000000', holds: [{ id: 'hold_1', amount: '1.5' }] });
    expect(h.received).toStrictEqual([{ amount: '12.500000000', items: [{ id: 'a' }] }]);
    payload.items[0]!.id = 'changed by the caller';
    first.holds[0]!.id = 'changed by the caller';
    const second = await h.calls.call('billing', 'keep', {});
    expect(h.received[0]).toStrictEqual({ amount: '12.500000000', items: [{ id: 'a' }] });
    expect(second).toStrictEqual({ balance: '25.000000000', holds: [{ id: 'hold_1', amount: '1.5' }] });
  });

  it('resolves to undefined when the handler returns nothing', async () => {
    await expect(h.calls.call('billing', 'nothing', undefined)).resolves.toBeUndefined();
  });

  it("re-throws the handler's DomainError with the same code, message id, params and headers", async () => {
    const error = await h.calls.call('billing', 'refuse', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: BusinessCode.RateLimited,
      messageId: 'rate.limited',
      params: { seconds: 7 },
      headers: { 'retry-after': '7' },
    });
  });

  it('turns an unexpected failure into a bare 500 and leaves its detail with the callee', async () => {
    const error = await h.calls.call('billing', 'crash', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: BusinessCode.ServerError, messageId: 'server.error', params: {} });
    const visible = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)}`;
    expect(visible).not.toMatch(/hunter2|postgres|db-7/);
    expect(h.reported).toEqual([new Error('connect failed: postgres://billing:hunter2@db-7/billing')]);
  });

  it("answers 503 (50301, Retry-After 1) when the callee's database cannot be reached, as the callee's edge would", async () => {
    const reportedBefore = h.reported.length;
    const error = await h.calls.call('billing', 'database down', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: BusinessCode.TemporarilyUnavailable,
      messageId: 'server.unavailable',
      headers: { 'retry-after': '1' },
    });
    expect(JSON.stringify(error)).not.toContain('10.0.0.5');
    // Expected while the database restarts: not reported as a fault.
    expect(h.reported).toHaveLength(reportedBefore);
  });

  it('refuses an unknown pattern and an unknown service by name', async () => {
    await expect(h.calls.call('billing', 'refund', {})).rejects.toThrow(
      new UnknownServiceCallError('billing', 'refund'),
    );
    const error = await h.calls.call('payroll', 'pay', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownServiceCallError);
    expect(error).toMatchObject({ service: 'payroll', pattern: 'pay' });
  });

  it('refuses a payload or a result that JSON would change, naming it', async () => {
    await expect(h.calls.call('billing', 'keep', { amount: 5n })).rejects.toThrow(
      new NotJsonSafeError(
        'the payload of billing.keep is not JSON-safe: $.amount is a bigint (send money as a decimal string)',
      ),
    );
    await expect(h.calls.call('billing', 'date', {})).rejects.toThrow(
      new NotJsonSafeError(
        'the result of billing.date is not JSON-safe: $.at is a Date instance (send plain objects)',
      ),
    );
  });

  it('stops waiting for a handler that does not answer in time, and keeps serving other calls', async () => {
    const started = Date.now();
    const error = await h.calls.call('billing', 'hang', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({
      code: BusinessCode.TemporarilyUnavailable,
      messageId: 'server.unavailable',
      reason: 'timeout',
    });
    await expect(h.calls.call('billing', 'double', { n: 4 })).resolves.toEqual({ n: 8 });
  });

  it('answers 200 concurrent calls, each with its own result', async () => {
    const ns = Array.from({ length: 200 }, (_, i) => i);
    const results = await Promise.all(ns.map((n) => h.calls.call('billing', 'double', { n })));
    expect(results).toEqual(ns.map((n) => ({ n: n * 2 })));
  });
});

describe('TcpServiceCall and a peer that comes and goes', () => {
  let calls: TcpServiceCall;
  let port: number;
  const seen = nothingSeen();
  beforeEach(async () => {
    port = await freePort();
    calls = new TcpServiceCall({ services: { billing: { host: '127.0.0.1', port } } });
  });
  afterEach(() => calls.close());

  const unavailable = async (reason: string, call: Promise<unknown>) => {
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ reason, code: BusinessCode.TemporarilyUnavailable });
  };

  it('fails fast while the peer is down and reaches it once it is up, again after a restart', async () => {
    const started = Date.now();
    await unavailable('unreachable', calls.call('billing', 'double', { n: 1 }));
    expect(Date.now() - started).toBeLessThan(1000);

    let server = await startBillingServer(port, seen);
    await expect(calls.call('billing', 'double', { n: 1 })).resolves.toEqual({ n: 2 });
    await server.app.close();
    // A call racing the close may still leave on the old connection (connection_lost); once the client saw
    // the connection end, calls fail as unreachable, without sending anything.
    await expect(calls.call('billing', 'double', { n: 2 })).rejects.toBeInstanceOf(ServiceUnavailableError);
    await unavailable('unreachable', calls.call('billing', 'double', { n: 2 }));

    server = await startBillingServer(port, seen);
    await expect(calls.call('billing', 'double', { n: 3 })).resolves.toEqual({ n: 6 });
    await server.app.close();
  });

  it('fails a call in flight when the peer goes away as connection_lost', async () => {
    const server = await startBillingServer(port, seen);
    const inFlight = calls.call('billing', 'hang', { n: 1 }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    while (seen.hanging.length === 0) await sleep(5);
    const started = Date.now();
    await server.app.close();
    const error = await inFlight;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ reason: 'connection_lost', code: BusinessCode.TemporarilyUnavailable });
  });

  it('refuses to attach the listener to an app without ServiceCallModule', async () => {
    @Module({})
    class PlainModule {}
    const app = await NestFactory.create(PlainModule, new FastifyAdapter(), { logger: false });
    await expect(connectServiceCallServer(app, { host: '127.0.0.1', port: 0 })).rejects.toThrow(
      'the app does not import ServiceCallModule.distributed',
    );
    await app.close();
  });
});

/** A peer that answers `billing.who` with its name. */
async function startNamedServer(name: string, port = 0): Promise<{ app: INestApplication; port: number }> {
  @Module({
    imports: [ServiceCallModule.distributed({ services: {} })],
    providers: [
      {
        provide: 'who',
        useFactory: (handlers: ServiceHandlers) => handlers.register('billing', 'who', async () => name),
        inject: [ServiceHandlers],
      },
    ],
  })
  class NamedServerModule {}
  const app = await NestFactory.create(NamedServerModule, new FastifyAdapter(), { logger: false });
  await app.init();
  const bound = await connectServiceCallServer(app, { host: '127.0.0.1', port });
  return { app, port: bound.port };
}

describe('TcpServiceCall and replicas', () => {
  const servers: INestApplication[] = [];
  const clients: TcpServiceCall[] = [];
  const client = (options: ConstructorParameters<typeof TcpServiceCall>[0]) => {
    const calls = new TcpServiceCall(options);
    clients.push(calls);
    return calls;
  };
  const start = async (name: string, port?: number) => {
    const server = await startNamedServer(name, port);
    servers.push(server.app);
    return { host: '127.0.0.1', port: server.port };
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('takes the replicas of a service in turn', async () => {
    const calls = client({ services: { billing: [await start('a'), await start('b'), await start('c')] } });
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await calls.call('billing', 'who', {}));
    expect(answers).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('skips a replica that cannot be reached (nothing was sent) and fails only when none can', async () => {
    const down = { host: '127.0.0.1', port: await freePort() };
    const calls = client({ services: { billing: [down, await start('b'), down] } });
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await calls.call('billing', 'who', {}));
    expect(answers).toEqual(['b', 'b', 'b', 'b']);

    const none = client({ services: { billing: [down, { host: '127.0.0.1', port: await freePort() }] } });
    const error = await none.call('billing', 'who', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ reason: 'unreachable' });
  });

  it('while starting, waits for a peer that is not up yet; once started, fails at once', async () => {
    const port = await freePort();
    const calls = client({ services: { billing: { host: '127.0.0.1', port } }, startupRetryMs: 10_000 });
    const pending = calls.call('billing', 'who', {});
    await sleep(600);
    await start('late', port);
    await expect(pending).resolves.toBe('late');

    await Promise.all(servers.splice(0).map((s) => s.close()));
    calls.started();
    const started = Date.now();
    const error = await calls.call('billing', 'who', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('while starting, gives up on a peer that stays down after startupRetryMs', async () => {
    const calls = client({
      services: { billing: { host: '127.0.0.1', port: await freePort() } },
      startupRetryMs: 700,
    });
    const started = Date.now();
    const error = await calls.call('billing', 'who', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'unreachable' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
