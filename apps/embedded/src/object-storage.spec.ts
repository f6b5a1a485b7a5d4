import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

describe('embedded object storage: signed URLs the service itself serves', () => {
  let embedded: Embedded;
  let storage: ObjectStorage;
  beforeAll(async () => {
    embedded = await startEmbedded({ LOG_LEVEL: 'silent' });
    storage = embedded.app.get<ObjectStorage>(OBJECT_STORAGE);
  });
  afterAll(() => embedded.close());

  it('hands out URLs on its own base URL, takes the upload, and serves it back', async () => {
    const bytes = Buffer.from('\x89PNG\r\n\x1a\n fake image bytes');
    const put = await storage.presignPut({
      key: 'uploads/acc_1/cat.png',
      contentType: 'image/png',
      contentLength: bytes.length,
      expiresInSeconds: 300,
    });
    expect(put.url.startsWith(`${embedded.baseUrl}/objects/v1/uploads/acc_1/cat.png?`)).toBe(true);
    const uploaded = await fetch(put.url, { method: 'PUT', headers: put.headers, body: bytes });
    expect(uploaded.status).toBe(200);
    expect(await storage.head('uploads/acc_1/cat.png')).toEqual({
      key: 'uploads/acc_1/cat.png',
      bytes: bytes.length,
      contentType: 'image/png',
    });

    const get = await storage.presignGet({ key: 'uploads/acc_1/cat.png', expiresInSeconds: 60 });
    const served = await fetch(get.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it('refuses a URL whose signature does not match, in the envelope, and stores nothing', async () => {
    const put = await storage.presignPut({
      key: 'uploads/acc_1/dog.png',
      contentType: 'image/png',
      contentLength: 4,
      expiresInSeconds: 300,
    });
    const forged = put.url.replace('dog.png', 'cat2.png');
    const refused = await fetch(forged, { method: 'PUT', headers: put.headers, body: 'abcd' });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { code: number; request_id: string };
    expect(body.code).toBe(403);
    expect(body.request_id).toMatch(/^req_/);
    expect(await storage.head('uploads/acc_1/cat2.png')).toBeNull();
  });

  it('keeps its objects and its URL key in DATA_DIR, the key readable by the owner only', () => {
    expect(existsSync(join(embedded.dataDir, 'objects', 'uploads', 'acc_1', 'cat.png'))).toBe(true);
    expect(statSync(join(embedded.dataDir, 'object-url.key')).mode & 0o777).toBe(0o600);
  });

  it('leaves the rest of the API on JSON only', async () => {
    const reply = await embedded.call('POST', '/admin/v1/accounts', {
      headers: { authorization: `Bearer ${embedded.boot.adminToken}`, 'content-type': 'image/png' },
      rawBody: 'abc',
    });
    expect(reply.status).toBe(400);
    expect(reply.json['msg']).toBe('Unsupported content type. Send the body as application/json.');
  });
});
