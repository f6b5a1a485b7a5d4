import { PGlite, types } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool, type PoolClient } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** A connection inside an open transaction. */
export interface SqlTransaction {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

/** What a Prisma client of ours takes as its `adapter`. */
export type PrismaAdapter = PrismaPg | PrismaPGlite;

/**
 * One database for the process: PostgreSQL through a pg pool when DATABASE_URL is set, otherwise PGlite in
 * DATA_DIR. Each service keeps its tables in its own PostgreSQL schema of this database.
 */
export interface Database {
  readonly kind: 'postgres' | 'pglite';
  /** Runs a script of one or more statements (simple query protocol), e.g. a migration. */
  exec(sql: string): Promise<void>;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs `work` on one connection holding a session advisory lock. */
  withLock<T>(lockName: string, work: (db: Pick<Database, 'exec' | 'query'>) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  prismaAdapter(): PrismaAdapter;
  /**
   * Calls `onNotify` on every NOTIFY of `channel` once the notifying transaction has committed, whichever
   * process committed it; and once more whenever a lost listening connection is back, since notifications
   * may have been missed meanwhile. Returns at once; listening starts in the background and retries every
   * second while the database is unreachable.
   */
  listen(channel: string, onNotify: () => void): Listening;
  ping(): Promise<void>;
  close(): Promise<void>;
}
export const DATABASE = Symbol('Database');

/** A `Database.listen` in progress. */
export interface Listening {
  /**
   * Resolves once the channel is listened to: a NOTIFY committed after that reaches `onNotify`. (Stopped before
   * that, it resolves too.)
   */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** Channel names are ours (e.g. `outbox_tasks`); anything else is refused rather than quoted. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel ${channel}`);
}

const RELISTEN_MS = 1000;

/** LISTEN on a connection of its own (a pooled one would be handed to other work), reconnecting when lost. */
function listenPostgres(connectionString: string, channel: string, onNotify: () => void): Listening {
  assertChannel(channel);
  let stopped = false;
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> = Promise.resolve();
  let listened: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listened = resolve));
  const retry = (): void => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connecting = connect(true);
    }, RELISTEN_MS);
    timer.unref();
  };
  const connect = async (again: boolean): Promise<void> => {
    const next = new Client({ connectionString });
    next.on('error', () => undefined);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on('end', () => {
      if (client === next) client = undefined;
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      await next.end().catch(() => undefined);
      retry();
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    listened();
    if (again) onNotify();
  };
  connecting = connect(false);
  return {
    ready,
    async stop() {
      stopped = true;
      listened();
      clearTimeout(timer);
      await connecting;
      await client?.end().catch(() => undefined);
    },
  };
}

export interface DatabaseOptions {
  readonly databaseUrl?: string;
  /** A directory for PGlite, or `memory://` for an in-memory database. */
  readonly pgliteDir: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir);
}

/** Distinct statement texts prepared by name at most, per process: each connection keeps what it prepared. */
const MAX_PREPARED_STATEMENTS = 500;

/**
 * Parameterised statements as prepared statements, named by a hash of their text: each connection parses,
 * analyses and plans a statement once instead of at every call (that was a quarter of PostgreSQL's CPU on the
 * createTask path), and PostgreSQL may settle on a generic plan. Our statement texts are fixed in code, so
 * the set is small; past `MAX_PREPARED_STATEMENTS` distinct texts, further ones run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = MAX_PREPARED_STATEMENTS) {}

  of(sql: string, params: unknown[] | undefined): { name?: string; text: string; values: unknown[] } {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < this.max) {
      name = `gts_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      this.names.set(sql, name);
    }
    return name === undefined
      ? { text: sql, values: params ?? [] }
      : { name, text: sql, values: params ?? [] };
  }
}

/**
 * Checks a client out of the pool for several statements. While it is out, the pool no longer listens for its
 * errors: a connection lost meanwhile (the server restarted, the backend was terminated) would be emitted as an
 * 'error' event nobody handles, which ends the process. The statement in flight fails with the error anyway;
 * the listener only keeps the event from being fatal, and `done` gives the client back (the pool drops a
 * broken one).
 */
async function checkOut(pool: Pool): Promise<{ client: PoolClient; done(): void }> {
  const client = await pool.connect();
  const ignore = (): void => undefined;
  client.on('error', ignore);
  return {
    client,
    done() {
      client.off('error', ignore);
      client.release();
    },
  };
}

function openPostgres(connectionString: string): Database {
  const pool = new Pool({ connectionString, max: 10 });
  const statements = new StatementNames();
  // An idle client whose connection dies (server restart, terminated backend) is dropped by the pool; without a
  // listener that 'error' event would end the process. The next query simply gets a new connection.
  pool.on('error', () => undefined);
  return {
    kind: 'postgres',
    async exec(sql) {
      await pool.query(sql);
    },
    async query(sql, params) {
      return (await pool.query(statements.of(sql, params))).rows;
    },
    async withLock(lockName, work) {
      const { client, done } = await checkOut(pool);
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
        try {
          return await work({
            exec: async (sql) => void (await client.query(sql)),
            query: async (sql, params) => (await client.query(statements.of(sql, params))).rows,
          });
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
        }
      } finally {
        done();
      }
    },
    async transaction(work) {
      const { client, done } = await checkOut(pool);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async (sql, params) => (await client.query(statements.of(sql, params))).rows,
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        done();
      }
    },
    prismaAdapter: () => new PrismaPg(pool),
    listen: (channel, onNotify) => listenPostgres(connectionString, channel, onNotify),
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

/**
 * The array types whose parsers PGlite keeps: those of its own scalar parsers, and a few other built-ins.
 * Arrays of anything else come back as PostgreSQL's text form.
 */
const KEPT_ARRAY_TYPES = [
  1000, 1001, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1115, 1182, 1185, 199, 3807, 1231, 2951,
  1183, 1270, 1187,
];

/**
 * PGlite copies its table of result parsers on every query, and at start it adds a parser for the array type
 * of every type in the database (316 with our schemas, one per table among them): that copy was half the
 * cost of a simple query. Only the scalar parsers and the arrays of built-in types are kept.
 */
function trimParsers(db: PGlite): void {
  const kept = new Set([...Object.keys(types.parsers), ...KEPT_ARRAY_TYPES.map(String)]);
  db.parsers = Object.fromEntries(Object.entries(db.parsers).filter(([oid]) => kept.has(oid)));
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const db = new PGlite(dir);
  await db.waitReady;
  trimParsers(db);
  const locks = new Map<string, Promise<unknown>>();
  const self: Database = {
    kind: 'pglite',
    async exec(sql) {
      await db.exec(sql);
    },
    async query(sql, params) {
      // PGlite runs a statement synchronously, on this thread: without a turn of the event loop first, the
      // requests that arrived meanwhile never get to queue their statements behind this one, and no group
      // commit (GroupCommit) ever forms. The turn costs microseconds; a group saves a statement per member.
      await new Promise(setImmediate);
      return (await db.query(sql, params)).rows as never[];
    },
    // PGlite is one connection owned by this process, so an in-process queue per lock name serializes.
    withLock: (lockName, work) => {
      const previous = locks.get(lockName) ?? Promise.resolve();
      const run = previous.then(() => work(self));
      locks.set(
        lockName,
        run.catch(() => undefined),
      );
      return run;
    },
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: async (sql, params) => (await tx.query(sql, params)).rows as never[] }),
      ),
    prismaAdapter: () => new PrismaPGlite(db),
    listen(channel, onNotify) {
      assertChannel(channel);
      // PGlite lives in this process only: its notifications come from this process's commits.
      const unlisten = db.listen(channel, () => onNotify());
      return {
        ready: unlisten.then(
          () => undefined,
          () => undefined,
        ),
        stop: () => unlisten.then((off) => off()).catch(() => undefined),
      };
    },
    async ping() {
      await db.query('SELECT 1');
    },
    close: () => db.close(),
  };
  return self;
}

export function pgliteDirIn(dataDir: string): string {
  return join(dataDir, 'pglite');
}
