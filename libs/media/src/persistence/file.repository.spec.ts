import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { FileRepository, type NewFile } from './file.repository';
import { MEDIA_SCHEMA, type MediaMigrations } from './media-schema';

const T0 = new Date('2026-12-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const FACTS = { sha256: 'a'.repeat(64), width: 4, height: 3 };

describe.each(DATABASE_KINDS)('files on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let files: FileRepository;
  let serial = 0;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, MEDIA_SCHEMA);
    files = new FileRepository(database, {} as MediaMigrations);
  });
  afterAll(() => test.close());

  const newFile = (accountId = 'acc_a'): NewFile => {
    serial += 1;
    return {
      id: `fil_${kind}_${serial}`,
      accountId,
      keyId: 'key_a',
      source: 'upload',
      contentType: 'image/png',
      bytes: 1234,
      fileName: 'a.png',
      tempKey: `tmp/uploads/fil_${kind}_${serial}`,
      expiresAt: at(900),
      sweepAt: at(4500),
      now: T0,
    };
  };

  it('keeps a pending file that only its own account can read', async () => {
    const created = await files.insert(newFile());
    expect(created).toMatchObject({
      state: 'pending',
      bytes: 1234,
      facts: null,
      refusal: null,
      claimedUntil: null,
    });
    expect(created.expiresAt).toEqual(at(900));
    expect(await files.find('acc_a', created.id)).toEqual(created);
    expect(await files.find('acc_b', created.id)).toBeNull();
  });

  it('lets exactly one of two concurrent claims verify a file, until its lease runs out', async () => {
    const file = await files.insert(newFile());
    const claims = await Promise.all([
      files.claim('acc_a', file.id, at(10), at(70)),
      files.claim('acc_a', file.id, at(10), at(70)),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await files.claim('acc_b', file.id, at(80), at(140))).toBeNull();
    expect(await files.claim('acc_a', file.id, at(69), at(129))).toBeNull();
    expect(await files.claim('acc_a', file.id, at(70), at(130))).not.toBeNull();
    await files.release('acc_a', file.id);
    expect((await files.find('acc_a', file.id))!.claimedUntil).toBeNull();
  });

  it('closes the commit window at sweepAt', async () => {
    const file = await files.insert(newFile());
    expect(await files.claim('acc_a', file.id, at(4500), at(4560))).toBeNull();
    expect(await files.claim('acc_a', file.id, at(4499), at(4560))).not.toBeNull();
  });

  it('records one verdict: ready or refused, only from pending', async () => {
    const ready = await files.insert(newFile());
    const marked = await files.markReady('acc_a', ready.id, {
      facts: FACTS,
      objectKey: 'files/acc_a/x',
      now: at(5),
    });
    expect(marked).toMatchObject({
      state: 'ready',
      facts: FACTS,
      objectKey: 'files/acc_a/x',
      committedAt: at(5),
    });
    expect(await files.markRefused('acc_a', ready.id, { messageId: 'media.empty', params: {} })).toBeNull();
    expect(await files.markReady('acc_b', ready.id, { facts: FACTS, objectKey: 'k', now: at(6) })).toBeNull();

    const refused = await files.insert(newFile());
    const params = { declared: 'image/png', detected: 'image/gif' };
    expect(
      await files.markRefused('acc_a', refused.id, { messageId: 'media.type_mismatch', params }),
    ).toMatchObject({
      state: 'refused',
      refusal: { messageId: 'media.type_mismatch', params },
    });
    expect(
      await files.markReady('acc_a', refused.id, { facts: FACTS, objectKey: 'k', now: at(6) }),
    ).toBeNull();
    const audio = await files.insert({ ...newFile(), contentType: 'audio/wav' });
    const facts = { sha256: 'b'.repeat(64), durationSeconds: 2.5 };
    expect((await files.markReady('acc_a', audio.id, { facts, objectKey: 'k', now: at(6) }))!.facts).toEqual(
      facts,
    );
  });

  it('sweeps files whose window closed: never committed ones go, ready ones lose their temporary key', async () => {
    const sweepAt = at(100_000);
    const pending = await files.insert({ ...newFile(), sweepAt });
    const refused = await files.insert({ ...newFile(), sweepAt });
    await files.markRefused('acc_a', refused.id, { messageId: 'media.empty', params: {} });
    const ready = await files.insert({ ...newFile(), sweepAt });
    await files.markReady('acc_a', ready.id, { facts: FACTS, objectKey: 'k', now: at(5) });
    const claimed = await files.insert({ ...newFile(), sweepAt });
    await files.claim('acc_a', claimed.id, at(99_999), at(100_060));
    const later = await files.insert({ ...newFile(), sweepAt: at(100_001) });

    const due = await files.dueForSweep(at(100_000), 100);
    const ids = due.map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining([pending.id, refused.id, ready.id]));
    expect(ids).not.toContain(claimed.id);
    expect(ids).not.toContain(later.id);
    for (const id of [pending.id, refused.id, ready.id]) await files.finishSweep(id, at(100_000));
    expect(await files.find('acc_a', pending.id)).toBeNull();
    expect(await files.find('acc_a', refused.id)).toBeNull();
    expect(await files.find('acc_a', ready.id)).toMatchObject({ state: 'ready', tempKey: null });
    expect((await files.dueForSweep(at(100_000), 100)).map((d) => d.id)).not.toContain(ready.id);
    expect(await files.find('acc_a', claimed.id)).not.toBeNull();
  });
});
