import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `libs/testing/fixtures`: files kept byte for byte as their source published them (see its README). */
const FIXTURES = join(__dirname, '..', 'fixtures');

/** The text of one fixture file, e.g. `webhook-signatures.json` (the specification's signature vectors). */
export function readFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** A task-callback entry of the specification's signature vectors. */
export interface CallbackVector {
  readonly secret: string;
  readonly version: 1 | 2;
  readonly timestamp: number;
  readonly body: string;
  readonly taskId: string;
  readonly sha256_hex: string;
  readonly signed_text: string;
  readonly 'X-Webhook-Signature': string;
}

/** A Standard Webhooks entry of the specification's signature vectors. */
export interface StandardVector {
  readonly scheme: 'standard-webhooks';
  readonly secret: string;
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': number;
  readonly body: string;
  readonly 'webhook-signature': string;
}

/** `webhook-signatures.json`, in file order, and split into its callback and Standard Webhooks entries. */
export function webhookSignatureVectors(): {
  all: (CallbackVector | StandardVector)[];
  callbacks: CallbackVector[];
  standards: StandardVector[];
} {
  const all = JSON.parse(readFixture('webhook-signatures.json')) as (CallbackVector | StandardVector)[];
  return {
    all,
    callbacks: all.filter((v): v is CallbackVector => !('scheme' in v)),
    standards: all.filter((v): v is StandardVector => 'scheme' in v),
  };
}
