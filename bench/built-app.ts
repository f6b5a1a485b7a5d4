import { readSettingsFile } from '@gen/core';
import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fundedKey } from './bench-support';

/** The repository (this file runs as dist/bench/built-app.js). */
const root = resolve(__dirname, '..', '..');

/** A service started from its compiled `main.js`, its demo account funded, with what stops and clears it. */
export interface BuiltApp {
  readonly url: string;
  readonly apiKey: string;
  readonly child: ChildProcess;
  readonly cleanup: () => Promise<void>;
}

/**
 * `npm start` (`embedded`) or `npm run start:fleet` (`fleet`: every app in its own process, on a scratch
 * PostgreSQL database and the brokers `npm run services:up` started, their settings from `.env.services`, with
 * topic, key and object prefixes of its own), as `dist/apps/<kind>/src/main.js`, on a fresh DATA_DIR, with rate
 * limits out of the way and `env` on top. Resolves once it listens and has written bootstrap.json, with an API
 * key of the demo account credited `credit` (and capped at as much a day).
 */
export async function startBuiltApp(
  kind: 'embedded' | 'fleet',
  options: { readonly credit: string; readonly prefix: string; readonly env?: Record<string, string> },
): Promise<BuiltApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `gts-${options.prefix}-${kind}-`));
  let scratch: ScratchDatabase | undefined;
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_BURST: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  if (kind === 'fleet') {
    scratch = await createScratchPostgres();
    const tag = `${options.prefix}-${randomBytes(4).toString('hex')}`;
    const services = join(root, '.env.services');
    Object.assign(env, existsSync(services) ? readSettingsFile(services) : {}, {
      DATABASE_URL: scratch.url,
      KAFKA_TOPIC_PREFIX: `${tag}.`,
      REDIS_KEY_PREFIX: `${tag}:`,
      S3_KEY_PREFIX: `${tag}/`,
    });
  }
  Object.assign(env, options.env ?? {});
  const child = spawn(process.execPath, [join(root, 'dist', 'apps', kind, 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const cleanup = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const line =
      kind === 'fleet' ? /^fleet \(distributed mode\) listening on (\S+)$/m : /listening on (http:\/\/\S+)\n/;
    const url = await new Promise<string>((done, fail) => {
      const poll = setInterval(() => {
        const match = line.exec(output);
        if (match && existsSync(join(dataDir, 'bootstrap.json'))) {
          clearInterval(poll);
          done(match[1]!);
        }
      }, 100);
      child.once('exit', (code) => {
        clearInterval(poll);
        fail(new Error(`${kind} exited with ${String(code)}:\n${output}`));
      });
    });
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      accountId: string;
      adminToken: string;
    };
    return { url, apiKey: await fundedKey(url, boot, options.credit), child, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
