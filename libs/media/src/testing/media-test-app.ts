import { Module, type DynamicModule } from '@nestjs/common';
import { API_KEY_AUTHENTICATOR, type ApiKeyPrincipal } from '@gen/contracts';
import type { AppConfig, Logger } from '@gen/core';
import { PlatformModule } from '@gen/platform';
import { OpenApiCheck, startApp, type RunningApp } from '@gen/testing';
import { mediaOpenApi } from '../http/media.openapi';
import { MediaModule } from '../media.module';

const principal = (accountId: string, keyId: string): ApiKeyPrincipal => ({
  accountId,
  keyId,
  language: null,
  group: 'default',
  priceMultiplier: '1',
  dailySpendCap: '10',
});

/** API keys of the test app: two keys of one account, and a stranger. */
export const KEYS: Readonly<Record<string, ApiKeyPrincipal>> = {
  gts_owner: principal('acc_owner', 'key_owner'),
  gts_owner2: principal('acc_owner', 'key_owner2'),
  gts_stranger: principal('acc_stranger', 'key_stranger'),
};

@Module({})
class MediaTestModule {}

/** The media routes behind the real edge (API keys, envelope, error filter) and the embedded object storage. */
const rootModule = (config: AppConfig, logger: Logger): DynamicModule => ({
  module: MediaTestModule,
  imports: [
    PlatformModule.forRoot({ config, logger, openApi: [mediaOpenApi] }),
    MediaModule.forRoot({ http: true, workers: false }),
  ],
  providers: [
    { provide: API_KEY_AUTHENTICATOR, useValue: { authenticate: async (key: string) => KEYS[key] ?? null } },
  ],
});

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

export interface MediaTestApp extends RunningApp {
  /** An API call, checked against the app's OpenAPI document. */
  call(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** Operations called so far, as `method /template`. */
  readonly seen: Set<string>;
  readonly openApi: OpenApiCheck;
}

export async function startMediaApp(env: Record<string, string> = {}): Promise<MediaTestApp> {
  const running = await startApp(rootModule, env);
  const document = (await (await fetch(`${running.baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
  const openApi = new OpenApiCheck(document);
  const seen = new Set<string>();
  const call: MediaTestApp['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const key = options.key === undefined ? 'gts_owner' : options.key;
    if (key) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${running.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const json = JSON.parse(text) as Record<string, unknown>;
    openApi.check(method, path, response.status, response.headers, json);
    seen.add(`${method.toLowerCase()} ${openApi.templateOf(path)}`);
    return { status: response.status, headers: response.headers, text, json };
  };
  return { ...running, call, seen, openApi };
}

/** Asks for a ticket and uploads `bytes` with it; the ticket's data. */
export async function upload(
  app: MediaTestApp,
  bytes: Buffer,
  contentType: string,
  options: { key?: string; declaredBytes?: number; fileName?: string } = {},
): Promise<{ fileId: string; uploadUrl: string; headers: Record<string, string>; putStatus: number }> {
  const ticket = await app.call('POST', '/api/v1/common/upload-url', {
    ...(options.key ? { key: options.key } : {}),
    body: {
      fileName: options.fileName ?? 'upload.bin',
      contentType,
      bytes: options.declaredBytes ?? bytes.length,
    },
  });
  if (ticket.status !== 200) throw new Error(`upload-url answered ${ticket.status}: ${ticket.text}`);
  const data = ticket.json['data'] as { fileId: string; uploadUrl: string; headers: Record<string, string> };
  const headers = { ...data.headers };
  delete headers['content-length']; // fetch sets it from the body
  const put = await fetch(data.uploadUrl, { method: 'PUT', headers, body: bytes });
  return { ...data, putStatus: put.status };
}
