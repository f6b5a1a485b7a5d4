import { createHash } from 'node:crypto';
import { FILES_PORT, type FilesPort } from '@gen/contracts';
import { CATALOGS } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { DATABASE, type Database } from '@gen/persistence';
import { DATABASE_KINDS, createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import {
  jpegSample,
  mp3Sample,
  mp4Sample,
  noisePng,
  pngHeaderOnly,
  pngSample,
  wavOf,
  wavSample,
  webmSample,
} from '../testing/media-samples';
import { startMediaApp, upload, type MediaTestApp } from '../testing/media-test-app';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DATABASE_KINDS)('direct uploads on %s: ticket, PUT, commit', (kind) => {
  let app: MediaTestApp;
  let scratch: ScratchDatabase | undefined;
  let storage: ObjectStorage;
  let database: Database;

  beforeAll(async () => {
    scratch = kind === 'postgres' ? await createScratchPostgres() : undefined;
    app = await startMediaApp(scratch ? { DATABASE_URL: scratch.url } : {});
    storage = app.app.get<ObjectStorage>(OBJECT_STORAGE);
    database = app.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await app.close();
    await scratch?.drop();
  });

  const commit = (fileId: string, options: Parameters<MediaTestApp['call']>[2] = {}) =>
    app.call('POST', `/api/v1/files/${fileId}/commit`, options);
  const rowOf = async (fileId: string) =>
    (await database.query(`SELECT * FROM "media"."files" WHERE "id" = $1`, [fileId]))[0];

  it('issues a ticket with a server-made key, the canonical type and the exact length to send', async () => {
    const reply = await app.call('POST', '/api/v1/common/upload-url', {
      body: { fileName: 'Ferien 2026 – Strand (1).JPG', contentType: 'Image/JPG', bytes: 2048 },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const data = reply.json['data'] as Record<string, unknown>;
    expect(data).toEqual({
      fileId: expect.stringMatching(/^fil_[0-9A-Z]{26}$/),
      uploadUrl: expect.stringContaining(`/objects/v1/tmp/uploads/${data['fileId'] as string}?`),
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg', 'content-length': '2048' },
      expiresAt: expect.any(String),
    });
    const minutes = (Date.parse(data['expiresAt'] as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(await rowOf(data['fileId'] as string)).toMatchObject({
      account_id: 'acc_owner',
      key_id: 'key_owner',
      state: 'pending',
      content_type: 'image/jpeg',
      bytes: 2048,
      file_name: 'Ferien 2026 – Strand (1).JPG',
      temp_key: `tmp/uploads/${data['fileId'] as string}`,
    });
  });

  const TYPES = 'Upload a JPEG, PNG, WebP or GIF image, an MP4 or WebM video, or MP3 or WAV audio.';
  it.each([
    [
      { fileName: 'a.svg', contentType: 'image/svg+xml', bytes: 10 },
      400,
      `The content type image/svg+xml is not supported. ${TYPES}`,
    ],
    [
      { fileName: 'a.txt', contentType: 'text/plain', bytes: 10 },
      400,
      `The content type text/plain is not supported. ${TYPES}`,
    ],
    [{ fileName: 'a.png', contentType: 'image/png', bytes: 0 }, 400, 'The file is empty. Nothing was kept.'],
    [
      { fileName: 'a.png', contentType: 'image/png', bytes: 10 * 1024 * 1024 + 1 },
      413,
      'The file is too large: a image/png file may have at most 10485760 bytes.',
    ],
    [
      { fileName: 'a.mp4', contentType: 'video/mp4', bytes: 100 * 1024 * 1024 + 1 },
      413,
      'The file is too large: a video/mp4 file may have at most 104857600 bytes.',
    ],
    [{ fileName: 'a/b.png', contentType: 'image/png', bytes: 10 }, 400, 'Invalid value for field fileName.'],
    [{ fileName: 'a.png', contentType: 'image/png', bytes: 10, path: 'x' }, 400, 'Unknown field path.'],
    [{ fileName: 'a.png', contentType: 'image/png', bytes: 1.5 }, 400, 'Invalid value for field bytes.'],
  ])('refuses the ticket %j with %i and creates nothing', async (body, status, msg) => {
    const before = await database.query(`SELECT count(*)::int AS n FROM "media"."files"`);
    const reply = await app.call('POST', '/api/v1/common/upload-url', { body });
    expect(reply.status).toBe(status);
    expect(reply.json).toEqual({ code: status, msg, request_id: expect.any(String) });
    expect(await database.query(`SELECT count(*)::int AS n FROM "media"."files"`)).toEqual(before);
  });

  it.each([
    ['image/png', () => pngSample(40, 30), { width: 40, height: 30 }],
    ['image/jpeg', () => jpegSample(40, 30), { width: 40, height: 30 }],
    ['audio/wav', async () => wavSample(2), { durationSeconds: 2 }],
    ['audio/mpeg', async () => mp3Sample(3), {}],
    ['video/mp4', async () => mp4Sample(4, 64, 48), { width: 64, height: 48, durationSeconds: 4 }],
    ['video/webm', async () => webmSample(5, 80, 60), { width: 80, height: 60, durationSeconds: 5 }],
  ])('commits a real %s: verified, hashed, copied to an immutable key', async (type, make, measured) => {
    const bytes = await make();
    const { fileId, putStatus } = await upload(app, bytes, type);
    expect(putStatus).toBe(200);
    const reply = await commit(fileId);
    expect(reply.status).toBe(200);
    const record = reply.json['data'] as Record<string, unknown>;
    expect(record).toMatchObject({
      fileId,
      uri: `service://files/${fileId}`,
      state: 'ready',
      contentType: type,
      bytes: bytes.length,
      sha256: sha256(bytes),
      ...measured,
    });
    if (type === 'audio/mpeg') expect(record['durationSeconds']).toBeCloseTo(3, 1);
    expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
    expect(await storage.head(`files/acc_owner/${fileId}`)).toEqual({
      key: `files/acc_owner/${fileId}`,
      bytes: bytes.length,
      contentType: type,
    });
  });

  it('answers 409 (media pending) before the bytes are there, then commits; a repeated commit is the same record', async () => {
    const png = await pngSample(16, 16);
    const ticket = await app.call('POST', '/api/v1/common/upload-url', {
      body: { fileName: 'late.png', contentType: 'image/png', bytes: png.length },
    });
    const { fileId, uploadUrl } = ticket.json['data'] as { fileId: string; uploadUrl: string };
    const early = await commit(fileId);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({
      code: 409,
      msg: CATALOGS.en['media.pending'].replace('{fileId}', fileId),
    });
    expect((await rowOf(fileId))!['state']).toBe('pending');

    // A truncated upload is refused by the storage itself, so the file stays pending.
    const cut = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: png.subarray(0, png.length - 10),
    });
    expect(cut.status).toBe(403);
    expect((await commit(fileId)).status).toBe(409);

    expect(
      (await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: png })).status,
    ).toBe(200);
    const first = await commit(fileId);
    expect(first.status).toBe(200);
    const again = await commit(fileId, { key: 'gts_owner2' });
    expect(again.status).toBe(200);
    expect(again.json['data']).toEqual(first.json['data']);
    expect((await rowOf(fileId))!['committed_at']).toEqual((await rowOf(fileId))!['committed_at']);
  });

  it('gives one file to two concurrent commits, both answered with the same record', async () => {
    const png = await noisePng(600, 600);
    const { fileId } = await upload(app, png, 'image/png');
    const [a, b] = await Promise.all([commit(fileId), commit(fileId, { key: 'gts_owner2' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json['data']).toEqual(b.json['data']);
    expect((a.json['data'] as { sha256: string }).sha256).toBe(sha256(png));
    const rows = await database.query(`SELECT "state", "committed_at" FROM "media"."files" WHERE "id" = $1`, [
      fileId,
    ]);
    expect(rows).toEqual([{ state: 'ready', committed_at: expect.any(Date) }]);
  });

  it.each([
    ['a spoofed type (a JPEG sent as PNG)', 'image/png', () => jpegSample(), 'media.type_mismatch', 'de'],
    [
      'text sent as PNG',
      'image/png',
      async () => Buffer.from('<svg onload=alert(1)>'),
      'media.type_unknown',
      'ja',
    ],
    [
      'a polyglot (a ZIP appended to a PNG)',
      'image/png',
      async () => Buffer.concat([await pngSample(), Buffer.from('PK\x03\x04 zip')]),
      'media.trailing_data',
      'fr',
    ],
    ['a cut WAV', 'audio/wav', async () => wavSample(1).subarray(0, 3000), 'media.damaged', 'ko'],
    ['601 seconds of WAV', 'audio/wav', async () => wavSample(601, 200), 'media.too_long', 'zh-Hant'],
    ['601 seconds of MP4', 'video/mp4', async () => mp4Sample(601), 'media.too_long', 'pt-BR'],
  ])(
    'refuses %s with 400 in the caller’s language and keeps nothing',
    async (_name, type, make, messageId, language) => {
      const bytes = await make();
      const { fileId, putStatus } = await upload(app, bytes, type);
      expect(putStatus).toBe(200);
      const reply = await commit(fileId, { headers: { 'accept-language': language } });
      expect(reply.status).toBe(400);
      expect(reply.headers.get('content-language')).toBe(language);
      expect(reply.json['code']).toBe(400);
      const template = CATALOGS[language as keyof typeof CATALOGS][messageId as keyof typeof CATALOGS.en];
      const [head] = template.split('{');
      expect(reply.json['msg']).toContain(head!.trim());
      expect(reply.json['msg']).not.toMatch(/\{\w+\}/);
      expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
      expect(await storage.head(`files/acc_owner/${fileId}`)).toBeNull();
      expect(await rowOf(fileId)).toMatchObject({
        state: 'refused',
        refusal: messageId,
        object_key: null,
        sha256: null,
      });
      // The refusal is final: the same answer again, still nothing kept.
      const again = await commit(fileId, { headers: { 'accept-language': language } });
      expect([again.status, again.json['msg']]).toEqual([400, reply.json['msg']]);
    },
  );

  describe('a file must be decodable as what it claims', () => {
    /** A 16-bit mono WAV at 8 kHz with one field of its header changed. */
    const wavWith = (offset: number, value: number, bytes: 2 | 4) => {
      const wav = wavOf(1, 8000);
      if (bytes === 2) wav.writeUInt16LE(value, offset);
      else wav.writeUInt32LE(value, offset);
      return wav;
    };
    it.each<[string, string, () => Buffer, string]>([
      [
        'the 144-byte MP4 of a movie header alone',
        'video/mp4',
        () => mp4Sample(5, 64, 48, Buffer.alloc(0), { tracks: false }),
        'The video/mp4 file holds no video or audio track that lasts: there is nothing in it to play. Nothing was kept.',
      ],
      [
        'a WebM without tracks',
        'video/webm',
        () => webmSample(5, 64, 48, { tracks: false }),
        'The video/webm file holds no video or audio track that lasts: there is nothing in it to play. Nothing was kept.',
      ],
      [
        'a WAV of 0 channels',
        'audio/wav',
        () => wavWith(22, 0, 2),
        'The file cannot be decoded as audio/wav: its header gives numChannels = 0, where ≥ 1 is needed. Nothing was kept.',
      ],
      [
        'a WAV of 0 bits per sample',
        'audio/wav',
        () => wavWith(34, 0, 2),
        'The file cannot be decoded as audio/wav: its header gives bitsPerSample = 0, where 8, 16, 24, 32 is needed. Nothing was kept.',
      ],
      [
        'a WAV with a byte rate of 1',
        'audio/wav',
        () => wavWith(28, 1, 4),
        'The file cannot be decoded as audio/wav: its header gives byteRate = 1, where 16000 (sampleRate × blockAlign) is needed. Nothing was kept.',
      ],
      [
        'a 10001 x 10000 PNG',
        'image/png',
        () => pngHeaderOnly(10001, 10000),
        'The image is 10001 x 10000 pixels, 100010000 pixels in all: more than the 100000000 pixels accepted, so it is not decoded. Nothing was kept.',
      ],
    ])('refuses %s at commit, saying why, and keeps nothing', async (_name, type, make, msg) => {
      const { fileId, putStatus } = await upload(app, make(), type);
      expect(putStatus).toBe(200);
      const reply = await commit(fileId);
      expect({ status: reply.status, body: reply.json }).toEqual({
        status: 400,
        body: { code: 400, msg, request_id: expect.stringMatching(/^req_/) },
      });
      expect(await storage.head(`tmp/uploads/${fileId}`)).toBeNull();
      expect(await storage.head(`files/acc_owner/${fileId}`)).toBeNull();
      expect(await rowOf(fileId)).toMatchObject({ state: 'refused', object_key: null, sha256: null });
      // Final: the same answer again, in another language too.
      expect((await commit(fileId)).json['msg']).toBe(msg);
      const japanese = await commit(fileId, { headers: { 'accept-language': 'ja' } });
      expect([japanese.status, japanese.headers.get('content-language')]).toEqual([400, 'ja']);
      expect(japanese.json['msg']).not.toMatch(/\{\w+\}/);
    });

    it.each<[string, string, () => Buffer, Record<string, unknown>]>([
      ['a 16-bit stereo WAV', 'audio/wav', () => wavOf(2, 44100, { channels: 2 }), { durationSeconds: 2 }],
      [
        'an extensible float WAV',
        'audio/wav',
        () => wavOf(1, 48000, { format: 3, bits: 32, extensible: true }),
        { durationSeconds: 1 },
      ],
      [
        'an MP4 with its track',
        'video/mp4',
        () => mp4Sample(5),
        { durationSeconds: 5, width: 64, height: 48 },
      ],
    ])('still commits %s', async (_name, type, make, facts) => {
      const { fileId } = await upload(app, make(), type);
      const reply = await commit(fileId);
      expect(reply.status).toBe(200);
      expect(reply.json['data']).toMatchObject({ state: 'ready', contentType: type, ...facts });
    });
  });

  it('answers another account’s file exactly as an unknown one (404), and a malformed id with 400', async () => {
    const { fileId } = await upload(app, await pngSample(), 'image/png');
    const stranger = await commit(fileId, { key: 'gts_stranger' });
    const unknown = await commit('fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB', { key: 'gts_stranger' });
    expect(stranger.status).toBe(404);
    expect({ ...stranger.json, request_id: null }).toEqual({ ...unknown.json, request_id: null });
    expect((await rowOf(fileId))!['state']).toBe('pending');
    expect(await storage.head(`tmp/uploads/${fileId}`)).not.toBeNull();
    expect((await commit('fil_nope')).status).toBe(400);
    expect((await commit(fileId, { key: null })).status).toBe(401);
  });

  it('offers ready files through FILES_PORT, to their own account only', async () => {
    const port = app.app.get<FilesPort>(FILES_PORT);
    const png = await pngSample(8, 8);
    const { fileId } = await upload(app, png, 'image/png', { fileName: 'eight.png' });
    expect(await port.findReady('acc_owner', fileId)).toBeNull();
    await commit(fileId);
    const ready = await port.findReady('acc_owner', `service://files/${fileId}`);
    expect(ready).toMatchObject({
      fileId,
      accountId: 'acc_owner',
      uri: `service://files/${fileId}`,
      state: 'ready',
      contentType: 'image/png',
      bytes: png.length,
      sha256: sha256(png),
      width: 8,
      height: 8,
      fileName: 'eight.png',
      objectKey: `files/acc_owner/${fileId}`,
    });
    expect(await port.findReady('acc_owner', fileId)).toEqual(ready);
    expect(await port.findReady('acc_stranger', `service://files/${fileId}`)).toBeNull();
    expect(await port.findReady('acc_owner', 'service://files/fil_x')).toBeNull();
    expect(await port.findReady('acc_owner', 'https://example.com/a.png')).toBeNull();
  });
});
