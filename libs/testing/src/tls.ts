import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server as NetServer } from 'node:net';
import { join } from 'node:path';

/** A PEM key and its self-signed certificate; `file` is the certificate's path (a CA bundle of one). */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
  readonly file: string;
}

/**
 * A self-signed P-256 certificate valid for a day, made with openssl in `dir` for HTTPS receivers in tests;
 * `subjectAltNames` as openssl writes them, e.g. `['IP:127.0.0.1']`.
 */
export function selfSignedCertificate(
  dir: string,
  commonName: string,
  subjectAltNames: readonly string[],
): TestCertificate {
  const keyFile = join(dir, 'key.pem');
  const file = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      file,
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      `subjectAltName=${subjectAltNames.join(',')}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(file, 'utf8'), file };
}

let nextLoopbackHost = 2 + Math.floor(Math.random() * 200);

/**
 * Binds `server` to port 443 of an address of its own in 127.0.0.0/8 (endpoint URLs must be https on port 443,
 * so each receiver needs an address; this needs the right to bind port 443), trying the next address while one
 * is taken; resolves with the address and a `close` that ends open connections too.
 */
export async function listenOnLoopback443(
  server: NetServer & { closeAllConnections?: () => void },
): Promise<{ host: string; close(): Promise<void> }> {
  for (let tries = 0; ; tries += 1) {
    const host = `127.0.0.${(nextLoopbackHost++ % 250) + 2}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(443, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return {
        host,
        close: () =>
          new Promise((resolve) => {
            server.closeAllConnections?.();
            server.close(() => resolve());
          }),
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || tries > 20) throw error;
    }
  }
}
