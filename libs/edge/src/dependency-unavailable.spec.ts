import { BusinessCode } from '@gen/contracts';
import { DomainError, isUnavailableDependency } from '@gen/core';
import { createServer } from 'node:net';
import { Client } from 'pg';
import { renderError } from './error-responder';

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The shape Prisma 7 gives a query whose driver adapter met a server that is starting up (from a real log). */
function prismaStartingUp(): Error {
  return Object.assign(new Error('Invalid `this.prisma.apiKey.findUnique()` invocation: Database error'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2039',
    meta: {
      modelName: 'ApiKey',
      driverAdapterError: {
        name: 'DriverAdapterError',
        cause: {
          kind: 'postgres',
          code: '57P03',
          message: 'the database system is not yet accepting connections',
        },
      },
    },
  });
}

describe('a dependency that cannot be reached is a 503 50301, not a 500', () => {
  it('recognises a refused PostgreSQL connection (node-postgres, for real)', async () => {
    const client = new Client({ host: '127.0.0.1', port: await deadPort(), user: 'postgres' });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isUnavailableDependency(error)).toBe(true);
  });

  it("recognises the server's shutdown and start-up answers, lost connections and Prisma's codes", () => {
    const db = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', 'ECONNRESET', 'P1001', 'P1017'])
      expect([code, isUnavailableDependency(db(code))]).toEqual([code, true]);
    expect(isUnavailableDependency(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isUnavailableDependency(prismaStartingUp())).toBe(true);
    expect(isUnavailableDependency(new Error('wrapped', { cause: db('ECONNREFUSED') }))).toBe(true);
  });

  it('leaves alone what a retry would not fix', () => {
    const db = (code: string) => Object.assign(new Error('x'), { code });
    // A syntax error, a unique violation, our own SQL refusals, Prisma's "record not found".
    for (const code of ['42601', '23505', 'GB401', 'P2025'])
      expect([code, isUnavailableDependency(db(code))]).toEqual([code, false]);
    expect(isUnavailableDependency(new Error('Connection terminated unexpectedly, or not'))).toBe(false);
    expect(isUnavailableDependency(new TypeError('x is undefined'))).toBe(false);
    expect(isUnavailableDependency(null)).toBe(false);
  });

  it('renders it as 503 with 50301 and Retry-After in the caller protocol, and keeps domain errors as they are', () => {
    const native = renderError(
      prismaStartingUp(),
      { id: 'req_1', url: '/api/v1/chat/credit', headers: {} },
      1024,
    );
    expect(native).toMatchObject({ status: 503, unexpected: false, headers: { 'retry-after': '1' } });
    expect(JSON.parse(native.body)).toMatchObject({ code: 50301, request_id: 'req_1' });
    const openai = renderError(
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      { id: 'req_2', url: '/v1/chat/completions', headers: {} },
      1024,
    );
    expect(openai.status).toBe(503);
    expect(JSON.parse(openai.body)).toMatchObject({ error: { type: expect.any(String) } });
    // A domain error that carries a lost connection as its cause keeps its own code.
    const domain = new DomainError(BusinessCode.NotFound, 'request.not_found');
    Object.assign(domain, { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(renderError(domain, { id: 'req_3', url: '/api/v1/x', headers: {} }, 1024).status).toBe(404);
    // Anything else is still the fixed 500.
    expect(
      renderError(new TypeError('bug'), { id: 'req_4', url: '/api/v1/x', headers: {} }, 1024),
    ).toMatchObject({
      status: 500,
      unexpected: true,
    });
  });
});
