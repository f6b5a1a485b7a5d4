import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
