import { newId, translate } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import {
  DATABASE_KINDS,
  OpenApiCheck,
  createScratchPostgres,
  startApp,
  type RunningApp,
  type ScratchDatabase,
} from '@gen/testing';
import { ASSET_PLANS } from '../domain/asset-plans';
import { ADMIN_TOKEN, TestAccounts, assetsTestModule } from '../testing/assets-test-app';
import { MemoryFilesPort } from '../testing/memory-files.port';
import { assetsOpenApi } from './assets.openapi';

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}
type Json = Record<string, unknown>;

interface CallOptions {
  /** The API key (`null`: none); `admin` sends the admin token instead. */
  readonly key?: string | null;
  readonly admin?: boolean;
  readonly body?: unknown;
  readonly idem?: string;
  readonly headers?: Record<string, string>;
}

describe.each(DATABASE_KINDS)('asset library routes on %s', (kind) => {
  const accounts = new TestAccounts();
  const files = new MemoryFilesPort();
  let running: RunningApp;
  let scratch: ScratchDatabase | undefined;
  let storage: ObjectStorage;
  let openApi: OpenApiCheck;
  const seen = new Set<string>();
  let serial = 0;

  beforeAll(async () => {
    scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
    running = await startApp(assetsTestModule(accounts, files), scratch ? { DATABASE_URL: scratch.url } : {});
    storage = running.app.get<ObjectStorage>(OBJECT_STORAGE);
    const document = (await (await fetch(`${running.baseUrl}/openapi.json`)).json()) as Json;
    openApi = new OpenApiCheck(document);
  });
  afterAll(async () => {
    await running.close();
    await scratch?.drop();
  });

  /** A new account with one API key per name given: returns the account id and the keys. */
  function tenant(...keyNames: string[]): { accountId: string; keys: string[] } {
    const accountId = newId('acc');
    const keys = (keyNames.length ? keyNames : ['main']).map((name) => {
      serial += 1;
      const apiKey = `gts_${kind}_${name}_${serial}`;
      accounts.addKey(apiKey, accountId, `key_${serial}`, name === 'de' ? 'de' : null);
      return apiKey;
    });
    return { accountId, keys };
  }

  /** A call as a client makes it, checked against the OpenAPI document. */
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.admin) headers['authorization'] = `Bearer ${ADMIN_TOKEN}`;
    else if (options.key) headers['authorization'] = `Bearer ${options.key}`;
    if (options.idem !== undefined) headers['idempotency-key'] = options.idem;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${running.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const json = JSON.parse(text) as Json;
    openApi.check(method, path, response.status, response.headers, json);
    seen.add(`${method.toLowerCase()} ${openApi.templateOf(path)}`);
    return { status: response.status, headers: response.headers, text, json };
  }
  const accountIdOf = (apiKey: string) => accounts.accountOf(apiKey);
  const data = (reply: Reply) => reply.json['data'] as Json;
  const save = (key: string, body: Json, idem: string = newId('idem')) =>
    call('POST', '/api/v1/assets', { key, body, idem });
  const usage = async (key: string) => data(await call('GET', '/api/v1/assets/usage', { key }));
  const list = async (key: string, query = '') => data(await call('GET', `/api/v1/assets${query}`, { key }));

  it('saves a ready file of the account and reads it back with a working private preview link', async () => {
    const { keys } = tenant();
    const [key] = keys as [string];
    const file = files.add(accountIdOf(key), { contentType: 'image/png', bytes: 5, fileName: 'fox.png' });
    await storage.put(file.objectKey, Buffer.from('\x89PNG!', 'latin1'), 'image/png');

    const saved = await save(key, { uri: file.uri, favorite: true, collectionId: 'col_trip' });
    expect(saved.status).toBe(200);
    expect(saved.headers.get('cache-control')).toBe('no-store');
    expect(saved.headers.get('x-request-id')).toBe(saved.json['request_id']);
    const asset = data(saved);
    expect(asset).toEqual({
      assetId: expect.stringMatching(/^ast_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'fox.png',
      favorite: true,
      collectionId: 'col_trip',
      uri: file.uri,
      contentType: 'image/png',
      bytes: 5,
      createdAt: expect.any(String),
      updatedAt: asset['createdAt'],
      previewUrl: expect.stringContaining('/objects/v1/'),
      previewExpiresAt: expect.any(String),
    });
    const lifetime = Date.parse(asset['previewExpiresAt'] as string) - Date.now();
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);

    const preview = await fetch(asset['previewUrl'] as string);
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).toString('latin1')).toBe('\x89PNG!');
    // The link is the signature: a changed one reads nothing.
    const forged = await fetch(`${asset['previewUrl'] as string}x`);
    expect(forged.status).not.toBe(200);

    const read = await call('GET', `/api/v1/assets/${asset['assetId'] as string}`, { key });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    const { previewUrl: _u, previewExpiresAt: _e, ...facts } = asset;
    expect(data(read)).toMatchObject(facts);
    expect(await list(key)).toEqual({ items: [expect.objectContaining(facts)] });
    expect(await usage(key)).toEqual({
      plan: 'free',
      usedBytes: 5,
      assetCount: 1,
      limits: { bytes: ASSET_PLANS.free.bytes, count: ASSET_PLANS.free.count },
    });

    // Without a name or a file name, the file id names the asset.
    const bare = files.add(accountIdOf(key));
    expect(data(await save(key, { uri: bare.uri }))).toMatchObject({
      name: bare.fileId,
      favorite: false,
      collectionId: null,
    });
  });

  it('requires an Idempotency-Key; the same key and body answer the same asset, saving nothing again', async () => {
    const { keys } = tenant('one', 'two');
    const [key, sibling] = keys as [string, string];
    const file = files.add(accountIdOf(key), { bytes: 7 });

    const missing = await call('POST', '/api/v1/assets', { key, body: { uri: file.uri } });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 400, msg: expect.stringContaining('Idempotency-Key') });
    expect(missing.json).not.toHaveProperty('data');
    const malformed = await call('POST', '/api/v1/assets', {
      key,
      body: { uri: file.uri },
      headers: { 'idempotency-key': 'ä' },
    });
    expect(malformed.status).toBe(400);
    expect(await usage(key)).toMatchObject({ usedBytes: 0, assetCount: 0 });

    const first = await save(key, { uri: file.uri, name: 'a' }, 'save-1');
    expect(first.status).toBe(200);
    const again = await save(key, { uri: file.uri, name: 'a', favorite: false }, 'save-1');
    expect(again.status).toBe(200);
    expect(data(again)['assetId']).toBe(data(first)['assetId']);
    expect(data(again)['createdAt']).toBe(data(first)['createdAt']);
    expect(await usage(key)).toMatchObject({ usedBytes: 7, assetCount: 1 });

    // A replay answers from the key before the file is looked at: also once the file is gone.
    files.remove(file.fileId);
    expect(data(await save(key, { uri: file.uri, name: 'a' }, 'save-1'))['assetId']).toBe(
      data(first)['assetId'],
    );
    expect((await save(key, { uri: file.uri, name: 'a' }, 'save-2')).status).toBe(400);

    // The replay shows the asset as it is now.
    const assetId = data(first)['assetId'] as string;
    await call('PATCH', `/api/v1/assets/${assetId}`, { key, body: { favorite: true } });
    expect(data(await save(key, { uri: file.uri, name: 'a' }, 'save-1'))).toMatchObject({
      assetId,
      favorite: true,
    });

    const otherBody = await save(key, { uri: file.uri, name: 'b' }, 'save-1');
    expect(otherBody.status).toBe(409);
    expect(otherBody.json).toMatchObject({ code: 409 });
    expect(otherBody.text).not.toContain(assetId);
    const otherKey = await save(sibling, { uri: file.uri, name: 'a' }, 'save-1');
    expect(otherKey.status).toBe(409);
    expect(otherKey.json['msg']).toContain('another API key');
    expect(otherKey.text).not.toContain(assetId);
    expect(await usage(key)).toMatchObject({ usedBytes: 7, assetCount: 1 });

    // Another account's use of the same key is its own.
    const stranger = tenant().keys[0]!;
    const theirs = files.add(accountIdOf(stranger));
    const independent = await save(stranger, { uri: theirs.uri, name: 'a' }, 'save-1');
    expect(independent.status).toBe(200);
    expect(data(independent)['assetId']).not.toBe(assetId);

    // A key whose asset was deleted since: 404, and nothing is saved again.
    expect((await call('DELETE', `/api/v1/assets/${assetId}`, { key })).status).toBe(200);
    const gone = await save(key, { uri: file.uri, name: 'a' }, 'save-1');
    expect(gone.status).toBe(404);
    expect(gone.json['msg']).toContain(assetId);
    expect(await usage(key)).toMatchObject({ usedBytes: 0, assetCount: 0 });
  });

  it('answers concurrent saves with one key with one asset', async () => {
    const [key] = tenant().keys as [string];
    const file = files.add(accountIdOf(key), { bytes: 3 });
    const replies = await Promise.all(Array.from({ length: 6 }, () => save(key, { uri: file.uri }, 'race')));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(replies.map((r) => data(r)['assetId'])).size).toBe(1);
    expect(await usage(key)).toMatchObject({ usedBytes: 3, assetCount: 1 });
  });

  it('refuses a URI that is not a ready file of the caller’s account with one 400 that reveals nothing', async () => {
    const [key] = tenant().keys as [string];
    const [stranger] = tenant().keys as [string];
    const foreign = files.add(accountIdOf(stranger), { fileName: 'secret-plans.png' });
    const unknown = `service://files/fil_${'Z'.repeat(20)}`;

    const replies = [await save(key, { uri: foreign.uri }), await save(key, { uri: unknown })];
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 400 });
      expect(reply.text).not.toContain('secret-plans');
      expect(reply.text).not.toContain(foreign.fileId);
    }
    expect(replies[0]!.json['msg']).toBe(replies[1]!.json['msg']);
    expect(replies[0]!.json['msg']).toContain('uri');

    for (const uri of [
      'https://example.com/a.png',
      foreign.fileId,
      'service://files/',
      'service://tasks/x',
    ]) {
      const reply = await save(key, { uri });
      expect([uri, reply.status]).toEqual([uri, 400]);
      expect(reply.json['msg']).toContain('uri');
    }
    for (const body of [{}, { uri: foreign.uri, extra: 1 }, { uri: unknown, collectionId: 'trip' }]) {
      expect((await save(key, body)).status).toBe(400);
    }
    expect(await usage(key)).toMatchObject({ usedBytes: 0, assetCount: 0 });
    expect(await list(key)).toEqual({ items: [] });
    // The stranger's library did not change either.
    expect(await usage(stranger)).toMatchObject({ usedBytes: 0, assetCount: 0 });
  });

  it('shares the library among the account’s keys and hides it from other accounts (404)', async () => {
    const { keys } = tenant('one', 'two');
    const [key, sibling] = keys as [string, string];
    const [stranger] = tenant().keys as [string];
    const file = files.add(accountIdOf(key));
    const assetId = data(await save(key, { uri: file.uri, name: 'shared' }))['assetId'] as string;

    expect(data(await call('GET', `/api/v1/assets/${assetId}`, { key: sibling }))['name']).toBe('shared');
    expect((await list(sibling))['items']).toHaveLength(1);
    expect(await usage(sibling)).toMatchObject({ assetCount: 1 });

    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const reply = await call(method, `/api/v1/assets/${assetId}`, { key: stranger, body });
      expect([method, reply.status]).toEqual([method, 404]);
      expect(reply.json).toMatchObject({ code: 404 });
    }
    expect(await list(stranger)).toEqual({ items: [] });
    expect(await usage(stranger)).toMatchObject({ assetCount: 0 });
    // Nothing changed for the owner.
    expect(data(await call('GET', `/api/v1/assets/${assetId}`, { key }))).toMatchObject({ name: 'shared' });

    // An unknown id of the right shape is the same 404; another shape is 400.
    expect((await call('GET', `/api/v1/assets/${newId('ast')}`, { key })).status).toBe(404);
    expect((await call('GET', '/api/v1/assets/ast_1', { key })).status).toBe(400);
    expect((await call('GET', `/api/v1/assets/${newId('job')}`, { key })).status).toBe(400);
  });

  it('renames and stars an asset (nothing else), and deletes it, freeing its quota', async () => {
    const [key] = tenant().keys as [string];
    const file = files.add(accountIdOf(key), { bytes: 11 });
    const asset = data(await save(key, { uri: file.uri, name: 'draft', collectionId: 'col_a' }));
    const path = `/api/v1/assets/${asset['assetId'] as string}`;

    const renamed = await call('PATCH', path, { key, body: { name: 'final' } });
    expect(renamed.status).toBe(200);
    expect(data(renamed)).toMatchObject({ name: 'final', favorite: false, collectionId: 'col_a' });
    expect(Date.parse(data(renamed)['updatedAt'] as string)).toBeGreaterThanOrEqual(
      Date.parse(asset['createdAt'] as string),
    );
    expect(data(await call('PATCH', path, { key, body: { favorite: true } }))).toMatchObject({
      name: 'final',
      favorite: true,
    });

    for (const [body, field] of [
      [{ uri: file.uri }, 'uri'],
      [{ collectionId: 'col_b' }, 'collectionId'],
      [{ bytes: 1 }, 'bytes'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ favorite: 'yes' }, 'favorite'],
      [{}, 'body'],
    ] as const) {
      const reply = await call('PATCH', path, { key, body });
      expect([field, reply.status]).toEqual([field, 400]);
      expect(reply.json['msg']).toContain(field);
    }
    expect(data(await call('GET', path, { key }))).toMatchObject({
      name: 'final',
      favorite: true,
      collectionId: 'col_a',
      uri: file.uri,
      bytes: 11,
    });

    const deleted = await call('DELETE', path, { key });
    expect(deleted.status).toBe(200);
    expect(data(deleted)).toEqual({ assetId: asset['assetId'], deleted: true });
    expect((await call('GET', path, { key })).status).toBe(404);
    expect((await call('DELETE', path, { key })).status).toBe(404);
    expect((await call('PATCH', path, { key, body: { name: 'x' } })).status).toBe(404);
    expect(await usage(key)).toMatchObject({ usedBytes: 0, assetCount: 0 });
    // The file itself is still the account's: it can be saved again.
    expect((await save(key, { uri: file.uri })).status).toBe(200);
  });

  it('enforces the plan’s limits with 403 and changes nothing; operators set plan and limits', async () => {
    const { accountId, keys } = tenant('main', 'de');
    const [key, german] = keys as [string, string];
    const limitsPath = `/admin/v1/accounts/${accountId}/asset-limits`;

    const initial = await call('GET', limitsPath, { admin: true });
    expect(initial.status).toBe(200);
    expect(data(initial)).toEqual({
      accountId,
      plan: 'free',
      usedBytes: 0,
      assetCount: 0,
      limits: { bytes: ASSET_PLANS.free.bytes, count: ASSET_PLANS.free.count },
    });

    const set = await call('PUT', limitsPath, { admin: true, body: { plan: 'free', count: 2, bytes: 100 } });
    expect(set.status).toBe(200);
    expect(data(set)).toMatchObject({ plan: 'free', limits: { bytes: 100, count: 2 } });
    expect(await usage(key)).toMatchObject({ plan: 'free', limits: { bytes: 100, count: 2 } });

    const small = () => files.add(accountId, { bytes: 30 });
    expect((await save(key, { uri: small().uri })).status).toBe(200);
    // Over the byte limit: 30 + 71 > 100.
    const heavy = await save(key, { uri: files.add(accountId, { bytes: 71 }).uri }, 'heavy');
    expect(heavy.status).toBe(403);
    expect(heavy.json).toMatchObject({ code: 403 });
    expect(heavy.json['msg']).toContain('100 bytes');
    expect(await usage(key)).toMatchObject({ usedBytes: 30, assetCount: 1 });
    expect((await save(key, { uri: small().uri })).status).toBe(200);
    const third = await save(german, { uri: small().uri });
    expect(third.status).toBe(403);
    expect(third.headers.get('content-language')).toBe('de');
    expect(third.json['msg']).toBe(translate('de', 'asset.quota_count', { limit: 2 }));
    expect(await usage(key)).toMatchObject({ usedBytes: 60, assetCount: 2 });
    expect((await list(key))['items']).toHaveLength(2);

    // Lowering the limits below the usage keeps the assets and refuses new ones.
    const lowered = await call('PUT', limitsPath, { admin: true, body: { plan: 'free', count: 1 } });
    expect(data(lowered)).toMatchObject({
      assetCount: 2,
      limits: { count: 1, bytes: ASSET_PLANS.free.bytes },
    });
    expect((await list(key))['items']).toHaveLength(2);
    expect((await save(key, { uri: small().uri })).status).toBe(403);

    // Another plan lifts them. A refused save claimed no key: its key now saves.
    const pro = await call('PUT', limitsPath, { admin: true, body: { plan: 'pro' } });
    expect(data(pro)).toMatchObject({ plan: 'pro', limits: ASSET_PLANS.pro });
    expect((await save(key, { uri: small().uri }, 'heavy')).status).toBe(200);
    expect(await usage(key)).toMatchObject({ plan: 'pro', usedBytes: 90, assetCount: 3 });

    // Admin refusals.
    const unknownAccount = `/admin/v1/accounts/${newId('acc')}/asset-limits`;
    expect((await call('GET', unknownAccount, { admin: true })).status).toBe(404);
    expect((await call('PUT', unknownAccount, { admin: true, body: { plan: 'pro' } })).status).toBe(404);
    for (const body of [
      { plan: 'gold' },
      { count: 1 },
      { plan: 'pro', bytes: -1 },
      { plan: 'pro', count: 1.5 },
    ]) {
      expect((await call('PUT', limitsPath, { admin: true, body })).status).toBe(400);
    }
    expect((await call('GET', '/admin/v1/accounts/acc_x/asset-limits', { admin: true })).status).toBe(400);
    expect((await call('GET', limitsPath, { key })).status).toBe(401);
    expect(await usage(key)).toMatchObject({ plan: 'pro', limits: ASSET_PLANS.pro });
  });

  it('lists with filters, four orders and cursor paging that stays stable while the library changes', async () => {
    const [key] = tenant().keys as [string];
    const names = ['Banana', 'apple', 'Cherry', 'apple pie', 'date', 'Elder', 'fig', 'Apple tart'];
    const saved: Json[] = [];
    for (const [i, name] of names.entries()) {
      const file = files.add(accountIdOf(key));
      const body = {
        uri: file.uri,
        name,
        favorite: i % 2 === 0,
        ...(i < 4 ? { collectionId: 'col_fruit' } : {}),
      };
      saved.push(data(await save(key, body)));
    }
    const idsOf = (page: Json) => (page['items'] as Json[]).map((a) => a['name']);
    async function walk(query: string, limit: number): Promise<unknown[]> {
      const out: unknown[] = [];
      let cursor: string | undefined;
      do {
        const sep = query ? '&' : '?';
        const page = await list(key, `${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        out.push(...idsOf(page));
        cursor = page['nextCursor'] as string | undefined;
      } while (cursor);
      return out;
    }
    const bytewise = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

    expect(idsOf(await list(key))).toEqual([...names].reverse());
    expect(await walk('?sort=createdAt', 3)).toEqual(names);
    expect(await walk('?sort=name', 3)).toEqual(bytewise);
    expect(await walk('?sort=-name', 2)).toEqual([...bytewise].reverse());
    expect(await walk('?q=APPLE&sort=name', 1)).toEqual(['Apple tart', 'apple', 'apple pie']);
    expect(await walk('?favorite=true&sort=createdAt', 2)).toEqual(names.filter((_, i) => i % 2 === 0));
    expect(await walk('?favorite=0&collectionId=col_fruit&sort=createdAt', 1)).toEqual([
      'apple',
      'apple pie',
    ]);
    expect(idsOf(await list(key, '?q=%25'))).toEqual([]);

    // A page, then changes, then the rest: nothing repeats and nothing already there is skipped.
    const first = await list(key, '?sort=createdAt&limit=3');
    expect(idsOf(first)).toEqual(names.slice(0, 3));
    await call('DELETE', `/api/v1/assets/${saved[0]!['assetId'] as string}`, { key });
    await call('DELETE', `/api/v1/assets/${saved[5]!['assetId'] as string}`, { key });
    await save(key, { uri: files.add(accountIdOf(key)).uri, name: 'grape' });
    const rest = await list(key, `?sort=createdAt&limit=100&cursor=${first['nextCursor'] as string}`);
    expect(idsOf(rest)).toEqual([...names.slice(3, 5), ...names.slice(6), 'grape']);
    expect(rest).not.toHaveProperty('nextCursor');

    // The cursor freezes the filters: the same values may be sent again, others are 400.
    const fruit = await list(key, '?collectionId=col_fruit&sort=name&limit=1');
    const cursor = fruit['nextCursor'] as string;
    expect(idsOf(await list(key, `?collectionId=col_fruit&sort=name&limit=1&cursor=${cursor}`))).toHaveLength(
      1,
    );
    expect(idsOf(await list(key, `?limit=1&cursor=${cursor}`))).toEqual(
      idsOf(await list(key, `?collectionId=col_fruit&sort=name&limit=1&cursor=${cursor}`)),
    );
    for (const changed of ['sort=-name', 'collectionId=col_other', 'q=a', 'favorite=true']) {
      const reply = await call('GET', `/api/v1/assets?${changed}&cursor=${cursor}`, { key });
      expect([changed, reply.status]).toEqual([changed, 400]);
      expect(reply.json['msg']).toContain(changed.split('=')[0]);
    }
    for (const bad of [
      'limit=0',
      'limit=101',
      'sort=size',
      'favorite=yes',
      'collectionId=fruit',
      `q=${'a'.repeat(129)}`,
      'q=',
      'cursor=abc',
      'owner=me',
      'q=a&q=b',
    ]) {
      const reply = await call('GET', `/api/v1/assets?${bad}`, { key });
      expect([bad, reply.status]).toEqual([bad, 400]);
    }
    // Another account's cursor narrows nothing of ours: it only pages the caller's own library.
    const [stranger] = tenant().keys as [string];
    expect(await list(stranger, `?limit=1&cursor=${cursor}`)).toEqual({ items: [] });
  });

  it('serves characters read only; operators make, list and delete them', async () => {
    const { accountId, keys } = tenant();
    const [key] = keys as [string];
    const [stranger] = tenant().keys as [string];
    const images = [
      files.add(accountId, { contentType: 'image/webp' }),
      files.add(accountId),
      files.add(accountId),
    ];
    await storage.put(images[0]!.objectKey, Buffer.from('RIFF'), 'image/webp');
    const base = `/admin/v1/accounts/${accountId}/asset-entities`;

    const created = await call('POST', base, {
      admin: true,
      body: { name: 'Captain Mira', images: [images[2]!.uri, images[0]!.uri, images[1]!.uri] },
    });
    expect(created.status).toBe(200);
    const entity = data(created);
    expect(entity).toEqual({
      entityId: expect.stringMatching(/^ent_/),
      name: 'Captain Mira',
      images: [2, 0, 1].map((i) => ({
        uri: images[i]!.uri,
        contentType: images[i]!.contentType,
        previewUrl: expect.stringContaining('/objects/v1/'),
        previewExpiresAt: expect.any(String),
      })),
      createdAt: expect.any(String),
    });
    const second = data(
      await call('POST', base, { admin: true, body: { name: 'Bo', images: [images[0]!.uri] } }),
    );

    const read = await call('GET', `/api/v1/assets/entities/${entity['entityId'] as string}`, { key });
    expect(read.status).toBe(200);
    expect(data(read)).toMatchObject({ entityId: entity['entityId'], name: 'Captain Mira' });
    expect((data(read)['images'] as Json[]).map((i) => i['uri'])).toEqual(
      [2, 0, 1].map((i) => images[i]!.uri),
    );
    const preview = await fetch((data(read)['images'] as Json[])[1]!['previewUrl'] as string);
    expect(await preview.text()).toBe('RIFF');

    const page = await call('GET', '/api/v1/assets/entities?limit=1', { key });
    expect((data(page)['items'] as Json[]).map((e) => e['entityId'])).toEqual([entity['entityId']]);
    const next = await call(
      'GET',
      `/api/v1/assets/entities?limit=1&cursor=${data(page)['nextCursor'] as string}`,
      {
        key,
      },
    );
    expect(data(next)).toEqual({ items: [expect.objectContaining({ entityId: second['entityId'] })] });
    expect(data(await call('GET', base, { admin: true }))['items']).toHaveLength(2);
    // Characters are not assets: the library's usage does not count them.
    expect(await usage(key)).toMatchObject({ usedBytes: 0, assetCount: 0 });

    // Another account sees none of them.
    expect(data(await call('GET', '/api/v1/assets/entities', { key: stranger }))).toEqual({ items: [] });
    const foreign = await call('GET', `/api/v1/assets/entities/${entity['entityId'] as string}`, {
      key: stranger,
    });
    expect(foreign.status).toBe(404);
    expect((await call('GET', `/api/v1/assets/entities/${newId('ent')}`, { key })).status).toBe(404);
    expect((await call('GET', '/api/v1/assets/entities/ent_1', { key })).status).toBe(400);
    expect((await call('GET', '/api/v1/assets/entities?cursor=abc', { key })).status).toBe(400);

    // Images must be ready files of that account; nothing is made otherwise.
    const strangerFile = files.add(accountIdOf(stranger));
    const refused = await call('POST', base, {
      admin: true,
      body: { name: 'X', images: [images[0]!.uri, strangerFile.uri] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json['msg']).toContain('images.1');
    for (const body of [{ name: 'X', images: [] }, { name: '', images: [images[0]!.uri] }, { name: 'X' }]) {
      expect((await call('POST', base, { admin: true, body })).status).toBe(400);
    }
    const unknownBase = `/admin/v1/accounts/${newId('acc')}/asset-entities`;
    expect(
      (await call('POST', unknownBase, { admin: true, body: { name: 'X', images: [images[0]!.uri] } }))
        .status,
    ).toBe(404);
    expect((await call('GET', unknownBase, { admin: true })).status).toBe(404);
    expect(data(await call('GET', base, { admin: true }))['items']).toHaveLength(2);
    // The API has no way to make one, and the admin routes need the admin token.
    expect((await call('POST', base, { key, body: { name: 'X', images: [images[0]!.uri] } })).status).toBe(
      401,
    );

    const removed = await call('DELETE', `${base}/${second['entityId'] as string}`, { admin: true });
    expect(data(removed)).toEqual({ entityId: second['entityId'], deleted: true });
    expect((await call('DELETE', `${base}/${second['entityId'] as string}`, { admin: true })).status).toBe(
      404,
    );
    expect(
      (await call('GET', `/api/v1/assets/entities/${second['entityId'] as string}`, { key })).status,
    ).toBe(404);
    const strangerBase = `/admin/v1/accounts/${accountIdOf(stranger)}/asset-entities`;
    expect(
      (await call('DELETE', `${strangerBase}/${entity['entityId'] as string}`, { admin: true })).status,
    ).toBe(404);
    expect(
      (await call('GET', `/api/v1/assets/entities/${entity['entityId'] as string}`, { key })).status,
    ).toBe(200);
  });

  it('needs an API key', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/assets'],
      ['POST', '/api/v1/assets'],
      ['GET', '/api/v1/assets/usage'],
      ['GET', `/api/v1/assets/${newId('ast')}`],
      ['GET', '/api/v1/assets/entities'],
    ] as const) {
      const reply = await call(method, path, {
        key: null,
        idem: 'k',
        body: method === 'POST' ? {} : undefined,
      });
      expect([path, reply.status]).toEqual([path, 401]);
    }
    expect((await call('GET', '/api/v1/assets', { key: 'gts_nobody' })).status).toBe(401);
  });

  it('calls every documented operation', () => {
    const documented = Object.entries(assetsOpenApi.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => method !== 'parameters')
        .map((method) => `${method} ${path}`),
    );
    expect(documented.filter((operation) => !seen.has(operation))).toEqual([]);
  });
});
