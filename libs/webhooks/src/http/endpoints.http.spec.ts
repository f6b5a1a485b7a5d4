import { Module, type DynamicModule } from '@nestjs/common';
import { CONSOLE_SESSION_VERIFIER, type ConsolePrincipal } from '@gen/contracts';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { OpenApiCheck, startApp, type RunningApp } from '@gen/testing';
import { WebhooksMigrations } from '../persistence/webhooks-schema';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { ENDPOINT_CONTROLLERS, ENDPOINT_PROVIDERS } from '../webhooks.module';
import { endpointsOpenApi } from './endpoints.openapi';

const session = { expiresAt: '2099-01-01T00:00:00.000Z', via: 'bearer' } as const;
const SESSIONS: Record<string, ConsolePrincipal> = {
  gcs_owner: { accountId: 'acc_owner', sessionId: 'cses_1', language: null, ...session },
  gcs_stranger: { accountId: 'acc_stranger', sessionId: 'cses_2', language: 'de', ...session },
  gcs_full: { accountId: 'acc_full', sessionId: 'cses_3', language: null, ...session },
};

@Module({})
class EndpointsTestModule {}

/** The endpoint routes behind the real edge (console session, envelope, error filter), on PGlite. */
const rootModule = (config: AppConfig, logger: Logger): DynamicModule => ({
  module: EndpointsTestModule,
  imports: [PlatformModule.forRoot({ config, logger, openApi: [endpointsOpenApi] })],
  controllers: ENDPOINT_CONTROLLERS,
  providers: [
    WebhooksMigrations,
    ...ENDPOINT_PROVIDERS,
    {
      provide: CONSOLE_SESSION_VERIFIER,
      useValue: { verify: async (token: string) => SESSIONS[token] ?? null },
    },
  ],
});

// A public IP literal: the URL check needs no DNS.
const URL_OK = 'https://93.184.215.14/webhooks';

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

describe('webhook endpoint routes', () => {
  let running: RunningApp;
  let openApi: OpenApiCheck;
  const seen = new Set<string>();

  beforeAll(async () => {
    running = await startApp(rootModule);
    const document = (await (await fetch(`${running.baseUrl}/openapi.json`)).json()) as Record<
      string,
      unknown
    >;
    openApi = new OpenApiCheck(document);
  });
  afterAll(() => running.close());

  /** A call as the console makes it, checked against the OpenAPI document. */
  async function call(
    method: string,
    path: string,
    options: { token?: string | null; body?: unknown; rawBody?: string; contentType?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? 'gcs_owner' : options.token;
    if (token) headers['authorization'] = `Bearer ${token}`;
    let body = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(`${running.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const json = JSON.parse(text) as Record<string, unknown>;
    openApi.check(method, path, response.status, response.headers, json);
    seen.add(`${method.toLowerCase()} ${openApi.templateOf(path)}`);
    return { status: response.status, headers: response.headers, text, json };
  }
  const data = (reply: Reply) => reply.json['data'] as Record<string, unknown>;

  it('manages an endpoint end to end; the secret appears in the create and rotate answers only', async () => {
    const created = await call('POST', '/console/v1/webhook-endpoints', {
      body: { url: URL_OK, enabledEvents: ['task.completed'], description: 'prod' },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.json).toMatchObject({ code: 200, request_id: expect.stringMatching(/^req_/) });
    const endpoint = data(created);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^whe_/),
      url: URL_OK,
      enabledEvents: ['task.completed'],
      description: 'prod',
      enabled: true,
      status: 'enabled',
      disabledReason: null,
      consecutiveFailures: 0,
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = endpoint['id'] as string;

    const listed = await call('GET', '/console/v1/webhook-endpoints');
    expect(listed.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(data(listed)).toEqual({ items: [withoutSecret] });
    const read = await call('GET', `/console/v1/webhook-endpoints/${id}`);
    expect(data(read)).toEqual(withoutSecret);
    expect(listed.text + read.text).not.toContain('whsec_');

    const disabled = await call('PATCH', `/console/v1/webhook-endpoints/${id}`, { body: { enabled: false } });
    expect(data(disabled)).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabledReason: 'disabled_by_user',
    });

    // An omitted body takes the default grace period.
    const rotated = await call('POST', `/console/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(data(rotated)['secret']).toMatch(/^whsec_/);
    expect(data(rotated)['secret']).not.toBe(endpoint['secret']);
    const stored = (await running.app.get(EndpointRepository).find('acc_owner', id))!;
    expect(stored.previousSecret).toBe(endpoint['secret']);
    const grace = stored.previousSecretExpiresAt!.getTime() - stored.updatedAt.getTime();
    expect(grace).toBe(86_400_000);
    const withBody = await call('POST', `/console/v1/webhook-endpoints/${id}/rotate-secret`, {
      body: { gracePeriodSeconds: 60 },
    });
    expect(withBody.status).toBe(200);

    const events = await call('GET', '/console/v1/webhook-events');
    expect(data(events)['items']).toEqual([
      { name: 'task.completed', description: expect.any(String) },
      { name: 'task.succeeded', description: expect.any(String) },
      { name: 'task.failed', description: expect.any(String) },
      { name: 'task.canceled', description: expect.any(String) },
      { name: 'task.expired', description: expect.any(String) },
    ]);

    // Another account's endpoint does not exist for the caller (and its language is German).
    const foreign = await call('GET', `/console/v1/webhook-endpoints/${id}`, { token: 'gcs_stranger' });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ code: 404 });
    expect(foreign.headers.get('content-language')).toBe('de');
    for (const [method, path, body] of [
      ['PATCH', `/console/v1/webhook-endpoints/${id}`, { enabled: true }],
      ['POST', `/console/v1/webhook-endpoints/${id}/rotate-secret`, {}],
    ] as const) {
      expect((await call(method, path, { token: 'gcs_stranger', body })).status).toBe(404);
    }
  });

  it('refuses a missing or invalid console session with 401', async () => {
    expect((await call('GET', '/console/v1/webhook-endpoints', { token: null })).status).toBe(401);
    expect(
      (await call('POST', '/console/v1/webhook-endpoints', { token: 'gcs_nobody', body: {} })).status,
    ).toBe(401);
  });

  it('answers 400 for bad bodies and query strings, without echoing the URL', async () => {
    const refused = await call('POST', '/console/v1/webhook-endpoints', {
      body: { url: 'http://127.0.0.1:80/hook', enabledEvents: ['task.failed'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json['msg']).toBe('Invalid callback URL');
    expect(refused.text).not.toContain('127.0.0.1');
    const cases: [string, string, unknown, string][] = [
      ['POST', '/console/v1/webhook-endpoints', { url: URL_OK, enabledEvents: ['*'] }, 'enabledEvents.0'],
      ['POST', '/console/v1/webhook-endpoints', { url: URL_OK, enabledEvents: [] }, 'enabledEvents'],
      ['POST', '/console/v1/webhook-endpoints', { url: URL_OK }, 'enabledEvents'],
      ['POST', '/console/v1/webhook-endpoints', { url: URL_OK, enabledEvents: ['task.failed'], x: 1 }, 'x'],
      ['PATCH', '/console/v1/webhook-endpoints/whe_x', { status: 'enabled' }, 'status'],
      ['PATCH', '/console/v1/webhook-endpoints/whe_x', { enabled: 'no' }, 'enabled'],
      [
        'POST',
        '/console/v1/webhook-endpoints/whe_x/rotate-secret',
        { gracePeriodSeconds: 604_801 },
        'gracePeriodSeconds',
      ],
      [
        'POST',
        '/console/v1/webhook-endpoints/whe_x/rotate-secret',
        { gracePeriodSeconds: 1.5 },
        'gracePeriodSeconds',
      ],
      ['POST', '/console/v1/webhook-endpoints/whe_x/rotate-secret', { grace: 10 }, 'grace'],
    ];
    for (const [method, path, body, field] of cases) {
      const reply = await call(method, path, { body });
      expect([path, reply.status]).toEqual([path, 400]);
      expect(reply.json['msg']).toContain(field);
    }
    const query = await call('GET', '/console/v1/webhook-endpoints?limit=5');
    expect(query.status).toBe(400);
    expect(query.json['msg']).toBe('Unknown query parameter limit.');
  });

  it('answers 409 to the 17th endpoint of an account', async () => {
    for (let i = 0; i < 16; i += 1) {
      const reply = await call('POST', '/console/v1/webhook-endpoints', {
        token: 'gcs_full',
        body: { url: URL_OK, enabledEvents: ['task.succeeded'] },
      });
      expect(reply.status).toBe(200);
    }
    const refused = await call('POST', '/console/v1/webhook-endpoints', {
      token: 'gcs_full',
      body: { url: URL_OK, enabledEvents: ['task.succeeded'] },
    });
    expect(refused.status).toBe(409);
    expect(refused.json['code']).toBe(409);
  });

  it('calls every documented operation', () => {
    const documented = Object.entries(endpointsOpenApi.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => method !== 'parameters')
        .map((method) => `${method} ${path}`),
    );
    expect(documented.filter((operation) => !seen.has(operation))).toEqual([]);
  });
});
