import {
  createScratchPostgres,
  DATABASE_KINDS,
  describeWithPostgres,
  type ScratchDatabase,
} from '@gen/testing';
import { Client } from 'pg';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

describe.each(DATABASE_KINDS)('accounts and funds persist on %s', (kind) => {
  let scratch: ScratchDatabase | undefined;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gts-db-'));
    scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
    env = { DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const balance = async (app: Embedded, key: string) =>
    (await app.call('GET', '/api/v1/chat/credit', { headers: { authorization: `Bearer ${key}` } })).json[
      'data'
    ] as Record<string, unknown>;

  it('keeps exact amounts, keys, revocations and the bootstrap across a restart', async () => {
    const first = await startEmbedded(env);
    let firstClosed = false;
    try {
      const { accountId } = (await first.admin('POST', '/admin/v1/accounts', {
        name: 'exact',
        credit: '0.000000001',
      })) as { accountId: string };
      const { apiKey } = (await first.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {
        dailyCap: '999999999.999999999',
      })) as { apiKey: string };
      const { apiKey: revokedKey, keyId: revokedId } = (await first.admin(
        'POST',
        `/admin/v1/accounts/${accountId}/keys`,
        {},
      )) as {
        apiKey: string;
        keyId: string;
      };
      await first.admin('POST', `/admin/v1/keys/${revokedId}/revoke`);
      await first.admin('POST', `/admin/v1/accounts/${accountId}/credits`, {
        amount: '999999999.999999999',
      });
      expect(await balance(first, apiKey)).toMatchObject({
        available: '1000000000',
        total: '1000000000',
      });
      const boot = first.boot;
      await first.close();
      firstClosed = true;

      const second = await startEmbedded(env);
      try {
        expect(second.boot).toEqual({ ...boot, baseUrl: second.baseUrl });
        expect(statSync(join(dataDir, 'bootstrap.json')).mode & 0o777).toBe(0o600);
        expect(await balance(second, apiKey)).toMatchObject({
          available: '1000000000',
          sources: { wallet: '1000000000' },
        });
        expect(await balance(second, boot.apiKey)).toMatchObject({
          available: '25',
          sources: { wallet: '25' },
        });
        expect(
          (
            await second.call('GET', '/api/v1/chat/credit', {
              headers: { authorization: `Bearer ${revokedKey}` },
            })
          ).status,
        ).toBe(401);
        const keys = (await second.admin('GET', `/admin/v1/accounts/${accountId}/keys`)) as {
          items: { dailyCap: string; revoked: boolean }[];
        };
        expect(keys.items.map((k) => [k.dailyCap, k.revoked])).toEqual([
          ['999999999.999999999', false],
          ['10', true],
        ]);
        const demoKeys = (await second.admin('GET', `/admin/v1/accounts/${boot.accountId}/keys`)) as {
          items: unknown[];
        };
        expect(demoKeys.items).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      if (!firstClosed) await first.close();
    }
  });
});

describeWithPostgres('a fleet starting at once against one PostgreSQL database', () => {
  it('makes one demo account between its processes, and each finds it', async () => {
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'gts-fleet-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' };
    const started = await Promise.allSettled([startEmbedded(env), startEmbedded(env), startEmbedded(env)]);
    const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      expect(started.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(new Set(apps.map((app) => app.boot.accountId)).size).toBe(1);
      expect(new Set(apps.map((app) => app.boot.apiKey)).size).toBe(1);
      const client = new Client({ connectionString: scratch.url });
      await client.connect();
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM accounts.accounts');
      await client.end();
      expect(rows[0]!.n).toBe('1');
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
