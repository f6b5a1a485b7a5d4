import { translate } from '@gen/core';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

describe('language of human-readable text, end to end', () => {
  let app: Embedded;
  let frenchKey: string;
  beforeAll(async () => {
    app = await startEmbedded();
    const { accountId } = await app.admin('POST', '/admin/v1/accounts', { name: 'french', language: 'fr' });
    frenchKey = (
      (await app.admin('POST', `/admin/v1/accounts/${accountId as string}/keys`, {})) as { apiKey: string }
    ).apiKey;
  });
  afterAll(() => app.close());

  /** A 404 from an authenticated caller: its msg shows the language chosen. */
  const notFound = (key: string | null, acceptLanguage?: string) =>
    app.call('GET', '/api/v1/no-such-thing', {
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}),
      },
    });

  async function expectLanguage(
    key: string | null,
    header: string | undefined,
    language: string,
  ): Promise<void> {
    const reply = await notFound(key, header);
    expect(reply.headers.get('content-language')).toBe(language);
    const id = key ? 'request.not_found' : 'auth.missing_key';
    expect(reply.json['msg']).toBe(translate(language as never, id));
    expect(reply.json['code']).toBe(key ? 404 : 401);
  }

  it('follows a recognized Accept-Language', () => expectLanguage(app.boot.apiKey, 'ja', 'ja'));
  it('takes the highest q, wherever it stands', () =>
    expectLanguage(app.boot.apiKey, 'ko;q=0.3, ru;q=0.9, de;q=0.5', 'ru'));
  it('maps de-DE to de', () => expectLanguage(app.boot.apiKey, 'de-DE', 'de'));
  it('maps pt-PT to pt-BR', () => expectLanguage(app.boot.apiKey, 'pt-PT', 'pt-BR'));
  it('maps zh-TW, zh-HK and zh-Hant to zh-Hant', async () => {
    for (const tag of ['zh-TW', 'zh-HK', 'zh-Hant']) await expectLanguage(app.boot.apiKey, tag, 'zh-Hant');
  });
  it('skips zh-CN, zh-Hans and * and tries the next candidate', () =>
    expectLanguage(app.boot.apiKey, 'zh-CN, zh-Hans;q=0.9, *;q=0.8, es;q=0.1', 'es'));
  it('falls back to the account setting when the header has nothing recognized', () =>
    expectLanguage(frenchKey, 'zh-CN, *', 'fr'));
  it('uses the account setting without a header', () => expectLanguage(frenchKey, undefined, 'fr'));
  it('prefers a recognized header over the account setting', () => expectLanguage(frenchKey, 'de-AT', 'de'));
  it('ends in English', async () => {
    await expectLanguage(app.boot.apiKey, 'zh-Hans, xx', 'en');
    await expectLanguage(null, undefined, 'en');
  });

  it('localizes the success msg too, and never the codes', async () => {
    const ja = await app.call('GET', '/api/v1/chat/credit', {
      headers: { authorization: `Bearer ${app.boot.apiKey}`, 'accept-language': 'ja' },
    });
    const en = await app.call('GET', '/api/v1/chat/credit', {
      headers: { authorization: `Bearer ${app.boot.apiKey}` },
    });
    expect(ja.json['msg']).toBe(translate('ja', 'success'));
    expect(ja.json['code']).toBe(en.json['code']);
    expect(ja.json['data']).toEqual(en.json['data']);
  });

  it('keeps the compatibility error codes and types in every language', async () => {
    const replies = await Promise.all(
      ['en', 'ko', 'fr'].map((l) =>
        app.call('GET', '/v1/models', { headers: { authorization: 'Bearer nope', 'accept-language': l } }),
      ),
    );
    const errors = replies.map((r) => r.json['error'] as Record<string, unknown>);
    expect(new Set(errors.map((e) => `${e['type'] as string}/${e['code'] as string}`)).size).toBe(1);
    expect(new Set(errors.map((e) => e['message'])).size).toBe(3);
    expect(replies.map((r) => r.headers.get('content-language'))).toEqual(['en', 'ko', 'fr']);
  });

  it('stops using a setting once it is cleared', async () => {
    const { accountId } = await app.admin('POST', '/admin/v1/accounts', { name: 'switch', language: 'ru' });
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId as string}/keys`, {})) as {
      apiKey: string;
    };
    await expectLanguage(apiKey, undefined, 'ru');
    await app.admin('PATCH', `/admin/v1/accounts/${accountId as string}`, { language: null });
    await new Promise((r) => setTimeout(r, 1100)); // the key cache holds the account setting for at most a second
    await expectLanguage(apiKey, undefined, 'en');
  });
});
