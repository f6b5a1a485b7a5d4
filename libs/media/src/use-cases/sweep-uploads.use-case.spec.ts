import { randomBytes } from 'node:crypto';
import { migrate } from '@gen/persistence';
import { LocalObjectStorage } from '@gen/storage';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { join } from 'node:path';
import { FileRepository, type NewFile } from '../persistence/file.repository';
import { MEDIA_SCHEMA, type MediaMigrations } from '../persistence/media-schema';
import { SweepUploadsUseCase } from './sweep-uploads.use-case';

const T0 = new Date('2026-12-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe.each(DATABASE_KINDS)('retention of uploads on %s', (kind) => {
  let test: TestDatabase;
  let files: FileRepository;
  let storage: LocalObjectStorage;
  let now = T0;
  let sweep: SweepUploadsUseCase;
  let serial = 0;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    await migrate(test.database, MEDIA_SCHEMA);
    files = new FileRepository(test.database, {} as MediaMigrations);
    storage = new LocalObjectStorage({
      directory: join(test.dir, 'objects'),
      baseUrl: 'http://127.0.0.1:1',
      secret: randomBytes(32),
    });
    sweep = new SweepUploadsUseCase(files, storage, { now: () => now }, null);
  });
  afterAll(() => test.close());

  async function uploaded(sweepAt: Date): Promise<NewFile> {
    serial += 1;
    const file: NewFile = {
      id: `fil_${serial}`,
      accountId: 'acc_a',
      keyId: 'key_a',
      source: 'upload',
      contentType: 'image/png',
      bytes: 3,
      fileName: 'x.png',
      tempKey: `tmp/uploads/fil_${serial}`,
      expiresAt: at(0),
      sweepAt,
      now: T0,
    };
    await files.insert(file);
    await storage.put(file.tempKey, Buffer.from('abc'), 'image/png');
    return file;
  }

  it('removes uploads never committed once their window closed, and only those', async () => {
    const expired = await uploaded(at(3600));
    const open = await uploaded(at(7200));
    const refused = await uploaded(at(3600));
    await files.markRefused('acc_a', refused.id, { messageId: 'media.damaged', params: {} });
    const ready = await uploaded(at(3600));
    await files.markReady('acc_a', ready.id, {
      facts: { sha256: 'f'.repeat(64) },
      objectKey: 'files/acc_a/r',
      now: T0,
    });

    now = at(3599);
    expect(await sweep.execute()).toBe(0);
    now = at(3600);
    expect(await sweep.execute()).toBe(3);

    expect(await files.find('acc_a', expired.id)).toBeNull();
    expect(await storage.head(expired.tempKey)).toBeNull();
    expect(await files.find('acc_a', refused.id)).toBeNull();
    expect(await storage.head(refused.tempKey)).toBeNull();
    // A ready file stays; what a second upload left at its temporary key goes.
    expect(await files.find('acc_a', ready.id)).toMatchObject({ state: 'ready', tempKey: null });
    expect(await storage.head(ready.tempKey)).toBeNull();
    // Not yet due: untouched.
    expect(await files.find('acc_a', open.id)).toMatchObject({ state: 'pending', tempKey: open.tempKey });
    expect(await storage.head(open.tempKey)).not.toBeNull();
    expect(await sweep.execute()).toBe(0);
  });

  it('leaves a file alone while a commit holds it', async () => {
    const held = await uploaded(at(10_000));
    await files.claim('acc_a', held.id, at(9_990), at(10_050));
    now = at(10_000);
    await sweep.execute(); // the earlier test's open upload is due by now
    expect(await files.find('acc_a', held.id)).toMatchObject({ state: 'pending', tempKey: held.tempKey });
    expect(await storage.head(held.tempKey)).not.toBeNull();
    now = at(10_050);
    expect(await sweep.execute()).toBe(1);
    expect(await files.find('acc_a', held.id)).toBeNull();
  });

  it("removes the bytes a commit that died had moved to the private key, and keeps a ready file's", async () => {
    const died = await uploaded(at(20_000));
    await storage.move(died.tempKey, 'files/acc_a/' + died.id);
    const ready = await uploaded(at(20_000));
    await storage.move(ready.tempKey, 'files/acc_a/' + ready.id);
    await files.markReady('acc_a', ready.id, {
      facts: { sha256: 'f'.repeat(64) },
      objectKey: 'files/acc_a/' + ready.id,
      now: T0,
    });
    now = at(20_000);
    expect(await sweep.execute()).toBe(2);
    expect(await files.find('acc_a', died.id)).toBeNull();
    expect(await storage.head('files/acc_a/' + died.id)).toBeNull();
    expect(await files.find('acc_a', ready.id)).toMatchObject({ state: 'ready' });
    expect(await storage.head('files/acc_a/' + ready.id)).toMatchObject({ bytes: 3 });
  });
});
