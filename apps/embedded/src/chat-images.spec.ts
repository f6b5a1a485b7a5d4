import sharp from 'sharp';
import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;
type Auth = Record<string, string>;

jest.setTimeout(60_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/**
 * Images in a conversation are checked at acceptance, before any hold, on every way a text model is called: a URL
 * the service does not take is a 400 naming the part, in the protocol's own shape, and nothing changes (no task,
 * no hold, no charge). A `service://` image must be a ready image of the caller's own account.
 */
describe('images in a conversation, at the door', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  async function customer(): Promise<Auth> {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', {
      name: 'images',
      credit: '1',
    })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  async function committedImage(auth: Auth): Promise<string> {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    const body = { fileName: 'in.png', contentType: 'image/png', bytes: png.length };
    const ticket = dataOf(await call('POST', '/api/v1/common/upload-url', { headers: auth, body })) as {
      fileId: string;
      uploadUrl: string;
    };
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: png,
    });
    expect(put.status).toBe(200);
    return dataOf(await call('POST', `/api/v1/files/${ticket.fileId}/commit`, { headers: auth }))[
      'uri'
    ] as string;
  }

  const balance = async (auth: Auth) => dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }));
  const jobs = async (auth: Auth) => dataOf(await call('GET', '/api/v1/jobs', { headers: auth }))['items'];

  const REFUSED = [
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_FLUSHALL',
    'http://169.254.169.254/latest/meta-data/',
    'javascript:alert(1)',
    'https://user:secret@images.example/cat.png',
    'https://images.example:8443/cat.png',
    'data:text/html;base64,PGgxPg==',
  ];

  it.each(REFUSED)(
    '%s: 400 naming the part on each protocol and the native API; nothing held, no task',
    async (url) => {
      const auth = await customer();
      const before = await balance(auth);
      const key = auth['authorization']!.slice('Bearer '.length);

      const chat = await call('POST', '/v1/chat/completions', {
        headers: auth,
        body: {
          model: 'local/echo/chat',
          messages: [
            { role: 'system', content: 'terse' },
            {
              role: 'user',
              content: [
                { type: 'text', text: 'what?' },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
        },
      });
      expect(chat.status).toBe(400);
      expect(chat.json['error']).toMatchObject({
        type: 'invalid_request_error',
        param: 'messages.1.content.1',
      });
      expect(chat.headers.get('x-service-task-id')).toBeNull();

      const responses = await call('POST', '/v1/responses', {
        headers: auth,
        body: {
          model: 'local/echo/chat',
          input: [{ role: 'user', content: [{ type: 'input_image', image_url: url }] }],
        },
      });
      expect(responses.status).toBe(400);
      expect(responses.json['error']).toMatchObject({ type: 'invalid_request_error' });

      const messages = await call('POST', '/v1/messages', {
        headers: { 'x-api-key': key },
        body: {
          model: 'local/echo/chat',
          max_tokens: 10,
          messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url } }] }],
        },
      });
      expect(messages.status).toBe(400);
      expect(messages.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

      const native = await call('POST', '/api/v1/jobs/createTask', {
        headers: auth,
        body: {
          model: 'local/echo/chat',
          input: { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] },
        },
      });
      expect(native.status).toBe(400);
      expect(native.json).toMatchObject({ code: 400 });
      expect(String(native.json['msg'])).toContain('input.messages.0.content.0');

      expect(await balance(auth)).toEqual(before);
      expect(await jobs(auth)).toEqual([]);
    },
  );

  it("another account's service:// image answers as one that does not exist; the owner's own is accepted", async () => {
    const owner = await customer();
    const other = await customer();
    const theirs = await committedImage(owner);
    const input = (uri: string) => ({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: uri } },
          ],
        },
      ],
    });
    const before = await balance(other);
    const refused = await call('POST', '/api/v1/jobs/createTask', {
      headers: other,
      body: { model: 'local/echo/chat', input: input(theirs) },
    });
    expect(refused.json).toMatchObject({
      code: 400,
      msg: 'The field input.messages.0.content.1 does not name a ready file of this account. Upload and commit the file, then use the uri the commit answered.',
    });
    const viaChat = await call('POST', '/v1/chat/completions', {
      headers: other,
      body: { model: 'local/echo/chat', ...input(theirs) },
    });
    expect(viaChat.status).toBe(400);
    expect(viaChat.headers.get('x-service-task-id')).toBeNull();
    expect(await balance(other)).toEqual(before);
    expect(await jobs(other)).toEqual([]);

    const accepted = await call('POST', '/v1/chat/completions', {
      headers: owner,
      body: { model: 'local/echo/chat', ...input(theirs) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('x-service-task-id')).toMatch(/^job_/);
  });
});
