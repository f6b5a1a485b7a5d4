import { S3ObjectStorage } from '@gen/storage';
import { randomBytes } from 'node:crypto';

const settings = {
  endpoint: process.env['S3_ENDPOINT']!,
  region: process.env['S3_REGION'] ?? 'us-east-1',
  accessKeyId: process.env['S3_ACCESS_KEY_ID']!,
  secretAccessKey: process.env['S3_SECRET_ACCESS_KEY']!,
  forcePathStyle: process.env['S3_FORCE_PATH_STYLE'] !== 'false',
};

describe('S3ObjectStorage against the real S3-compatible server', () => {
  const bucket = `e2e-${randomBytes(4).toString('hex')}`;
  const storage = new S3ObjectStorage({ ...settings, bucket });
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(1024),
  ]);

  beforeAll(() => storage.ensureBucket());
  afterAll(() => storage.close());

  const upload = (url: string, body: Buffer, contentType: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

  it('takes a presigned upload of the declared size and type, then serves it by presigned GET', async () => {
    const ticket = await storage.presignPut({
      key: 'tmp/ok.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 300,
    });
    expect(ticket.headers).toEqual({ 'content-type': 'image/png', 'content-length': String(png.length) });
    expect((await upload(ticket.url, png, 'image/png')).status).toBe(200);
    expect(await storage.head('tmp/ok.png')).toEqual({
      key: 'tmp/ok.png',
      bytes: png.length,
      contentType: 'image/png',
    });

    const download = await storage.presignGet({ key: 'tmp/ok.png', expiresInSeconds: 300 });
    const response = await fetch(download.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses an upload of another byte count or another content type, and stores nothing', async () => {
    const ticket = await storage.presignPut({
      key: 'tmp/size.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 300,
    });
    expect((await upload(ticket.url, png.subarray(1), 'image/png')).status).toBe(403);
    expect((await upload(ticket.url, Buffer.concat([png, Buffer.from([0])]), 'image/png')).status).toBe(403);
    expect((await upload(ticket.url, png, 'image/jpeg')).status).toBe(403);
    expect(await storage.head('tmp/size.png')).toBeNull();
  });

  it('refuses a tampered signature and an expired URL', async () => {
    const ticket = await storage.presignPut({
      key: 'tmp/tamper.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 300,
    });
    const tampered = ticket.url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`,
    );
    expect(tampered).not.toBe(ticket.url);
    expect((await upload(tampered, png, 'image/png')).status).toBe(403);

    const past = new S3ObjectStorage({
      ...settings,
      bucket,
      signingDate: () => new Date(Date.now() - 120_000),
    });
    const expiredPut = await past.presignPut({
      key: 'tmp/late.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 60,
    });
    expect(expiredPut.expiresAt.getTime()).toBeLessThan(Date.now());
    expect((await upload(expiredPut.url, png, 'image/png')).status).toBe(403);
    await storage.put('tmp/present.png', png, 'image/png');
    const expiredGet = await past.presignGet({ key: 'tmp/present.png', expiresInSeconds: 60 });
    expect((await fetch(expiredGet.url)).status).toBe(403);
    past.close();
  });

  it('reads an object back as a stream with its size and type, and null when there is none', async () => {
    expect(await storage.read('tmp/absent.png')).toBeNull();
    await storage.put('tmp/read.png', png, 'image/png');
    const object = (await storage.read('tmp/read.png'))!;
    expect(object).toMatchObject({ key: 'tmp/read.png', bytes: png.length, contentType: 'image/png' });
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(png)).toBe(true);
  });

  it('reads an object whole into one buffer, unless it is larger than asked, and null when there is none', async () => {
    expect(await storage.readBytes('tmp/absent.png', 1 << 20)).toBeNull();
    await storage.put('tmp/whole.png', png, 'image/png');
    const whole = (await storage.readBytes('tmp/whole.png', png.length))!;
    expect({ ...whole, body: undefined }).toEqual({
      key: 'tmp/whole.png',
      bytes: png.length,
      contentType: 'image/png',
      body: undefined,
    });
    expect(whole.body!.equals(png)).toBe(true);
    expect(await storage.readBytes('tmp/whole.png', png.length - 1)).toEqual({
      key: 'tmp/whole.png',
      bytes: png.length,
      contentType: 'image/png',
      body: null,
    });
    await storage.delete('tmp/whole.png');
    expect(await storage.readBytes('tmp/whole.png', 1 << 20)).toBeNull();
  });

  it('moves an object (server-side copy, then delete), and answers false when there is none', async () => {
    await storage.put('tmp/uploads/fil_mv', png, 'image/png');
    expect(await storage.move('tmp/uploads/fil_mv', 'files/acc_mv/fil_mv')).toBe(true);
    expect(await storage.head('tmp/uploads/fil_mv')).toBeNull();
    expect(await storage.head('files/acc_mv/fil_mv')).toEqual({
      key: 'files/acc_mv/fil_mv',
      bytes: png.length,
      contentType: 'image/png',
    });
    expect(await storage.move('tmp/uploads/fil_mv', 'files/acc_mv/fil_mv')).toBe(false);
    expect(await storage.head('files/acc_mv/fil_mv')).toMatchObject({ bytes: png.length });
    await storage.delete('files/acc_mv/fil_mv');
  });

  it('lists the objects under a prefix written before a time, up to a limit', async () => {
    await storage.put('transit/sweep/1', png, 'image/png');
    await storage.put('transit/sweep/2', png, 'image/png');
    await storage.put('transit/other/3', png, 'image/png');
    const later = new Date(Date.now() + 60_000);
    expect((await storage.listOlder('transit/sweep/', later, 10)).sort()).toEqual([
      'transit/sweep/1',
      'transit/sweep/2',
    ]);
    expect(await storage.listOlder('transit/sweep/', later, 1)).toHaveLength(1);
    expect(await storage.listOlder('transit/sweep/', new Date(Date.now() - 60_000), 10)).toEqual([]);
    for (const key of ['transit/sweep/1', 'transit/sweep/2', 'transit/other/3']) await storage.delete(key);
    expect(await storage.listOlder('transit/', later, 10)).toEqual([]);
  });

  it('copies to an immutable key and deletes', async () => {
    await storage.put('tmp/source.png', png, 'image/png');
    await storage.copy('tmp/source.png', 'files/fil_1/source.png');
    await storage.delete('tmp/source.png');
    expect(await storage.head('tmp/source.png')).toBeNull();
    expect(await storage.head('files/fil_1/source.png')).toEqual({
      key: 'files/fil_1/source.png',
      bytes: png.length,
      contentType: 'image/png',
    });
  });
});

describe('S3_KEY_PREFIX: two fleets sharing one bucket do not see each other’s objects', () => {
  const bucket = `e2e-${randomBytes(4).toString('hex')}`;
  const run = randomBytes(4).toString('hex');
  const fleetA = new S3ObjectStorage({ ...settings, bucket, keyPrefix: `fleet-a-${run}/` });
  const fleetB = new S3ObjectStorage({ ...settings, bucket, keyPrefix: `fleet-b-${run}/` });
  // The bucket as it is, without a prefix.
  const raw = new S3ObjectStorage({ ...settings, bucket });
  const body = Buffer.from('fleet A output');

  beforeAll(() => raw.ensureBucket());
  afterAll(() => [fleetA, fleetB, raw].forEach((s) => s.close()));

  it('writes, reads, copies and deletes under its own prefix, with the caller’s keys unchanged', async () => {
    await fleetA.put('outputs/task_1/0.txt', body, 'text/plain');
    expect(await fleetA.head('outputs/task_1/0.txt')).toEqual({
      key: 'outputs/task_1/0.txt',
      bytes: body.length,
      contentType: 'text/plain',
    });
    // The same key is another object for fleet B, and in the bucket the object sits under A's prefix.
    expect(await fleetB.head('outputs/task_1/0.txt')).toBeNull();
    expect(await raw.head('outputs/task_1/0.txt')).toBeNull();
    expect(await raw.head(`fleet-a-${run}/outputs/task_1/0.txt`)).toMatchObject({ bytes: body.length });

    await fleetA.copy('outputs/task_1/0.txt', 'files/fil_1/0.txt');
    expect(await raw.head(`fleet-a-${run}/files/fil_1/0.txt`)).toMatchObject({ bytes: body.length });
    expect(await fleetB.head('files/fil_1/0.txt')).toBeNull();

    // B deleting "its" key leaves A's object alone; A's delete removes it.
    await fleetB.delete('outputs/task_1/0.txt');
    expect(await fleetA.head('outputs/task_1/0.txt')).not.toBeNull();
    await fleetA.delete('outputs/task_1/0.txt');
    expect(await raw.head(`fleet-a-${run}/outputs/task_1/0.txt`)).toBeNull();
  });

  it('presigns under its prefix: an upload lands there, and only its own download URL finds it', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const ticket = await fleetB.presignPut({
      key: 'tmp/up.png',
      contentType: 'image/png',
      contentLength: png.length,
      expiresInSeconds: 300,
    });
    expect(new URL(ticket.url).pathname).toBe(`/${bucket}/fleet-b-${run}/tmp/up.png`);
    const uploaded = await fetch(ticket.url, { method: 'PUT', body: png, headers: ticket.headers });
    expect(uploaded.status).toBe(200);
    expect(await raw.head(`fleet-b-${run}/tmp/up.png`)).toMatchObject({ bytes: png.length });
    expect(await fleetA.head('tmp/up.png')).toBeNull();

    const mine = await fetch((await fleetB.presignGet({ key: 'tmp/up.png', expiresInSeconds: 300 })).url);
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer()).equals(png)).toBe(true);
    const theirs = await fetch((await fleetA.presignGet({ key: 'tmp/up.png', expiresInSeconds: 300 })).url);
    expect(theirs.status).toBe(404);
  });
});

describe('S3_PUBLIC_ENDPOINT: presigned URLs name the address clients reach the store at', () => {
  const bucket = `e2e-${randomBytes(4).toString('hex')}`;
  // The same server under another name: the apps reach it at S3_ENDPOINT, clients at `localhost`.
  const internal = new URL(settings.endpoint);
  const publicEndpoint = `http://localhost:${internal.port}`;
  const storage = new S3ObjectStorage({ ...settings, bucket, publicEndpoint });
  const body = Buffer.from('through the public endpoint');

  beforeAll(() => storage.ensureBucket());
  afterAll(() => storage.close());

  it('signs uploads and downloads for the public host, while the process itself uses S3_ENDPOINT', async () => {
    const ticket = await storage.presignPut({
      key: 'tmp/public.txt',
      contentType: 'text/plain',
      contentLength: body.length,
      expiresInSeconds: 300,
    });
    expect(ticket.url.startsWith(`${publicEndpoint}/${bucket}/tmp/public.txt?`)).toBe(true);
    const put = await fetch(ticket.url, { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(200);
    // The process reads it back over its own endpoint.
    expect((await storage.readBytes('tmp/public.txt', 1024))?.body?.equals(body)).toBe(true);
    const download = await storage.presignGet({ key: 'tmp/public.txt', expiresInSeconds: 300 });
    expect(download.url.startsWith(`${publicEndpoint}/`)).toBe(true);
    const got = await fetch(download.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    // The host is part of the signature: the same URL sent to the internal address is refused.
    const elsewhere = await fetch(download.url.replace(publicEndpoint, settings.endpoint.replace(/\/$/, '')));
    expect(elsewhere.status).toBe(403);
  });
});
