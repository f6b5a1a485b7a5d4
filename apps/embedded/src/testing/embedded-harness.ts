import type { Type } from '@nestjs/common';
import { BootstrapDemoUseCase, type BootstrapFile } from '@gen/accounts';
import { startApp, type RunningApp } from '@gen/testing';
import { EmbeddedModule } from '../embedded.module';

export interface Embedded extends RunningApp {
  readonly boot: BootstrapFile;
  /** A call as a client makes it; JSON bodies are serialized. */
  call(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown; rawBody?: string | Uint8Array },
  ): Promise<Reply>;
  /** An admin API call with the bootstrap admin token; fails the test unless the answer is 200. */
  admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

/** The embedded app on a random port, bootstrapped, with helpers to call it. */
export async function startEmbedded(
  env: Record<string, string> = {},
  extraModules: Type<unknown>[] = [],
): Promise<Embedded> {
  const running = await startApp((config, logger) => {
    const root = EmbeddedModule.forRoot(config, logger);
    return extraModules.length ? { ...root, imports: [...(root.imports ?? []), ...extraModules] } : root;
  }, env);
  const { file } = await running.app.get(BootstrapDemoUseCase).execute(running.baseUrl);
  const boot = file!;
  const call: Embedded['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${running.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: tests look at text
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  const admin: Embedded['admin'] = async (method, path, body) => {
    const reply = await call(method, path, { headers: { authorization: `Bearer ${boot.adminToken}` }, body });
    if (reply.status !== 200)
      throw new Error(`admin ${method} ${path} answered ${reply.status}: ${reply.text}`);
    return reply.json['data'] as Record<string, unknown>;
  };
  return { ...running, boot, call, admin };
}
