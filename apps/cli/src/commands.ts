/** One CLI command: its words (one or two), the flags it takes, and the admin API call it makes. */
export interface Command {
  readonly words: readonly [string] | readonly [string, string];
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly request: (flags: Readonly<Record<string, string>>) => {
    method: string;
    path: string;
    body?: Record<string, unknown>;
  };
}

const seg = encodeURIComponent;
const pick = (
  flags: Readonly<Record<string, string>>,
  map: Record<string, string>,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [flag, field] of Object.entries(map)) if (flags[flag] !== undefined) out[field] = flags[flag];
  return out;
};
/** A whole number flag as a JSON number; anything else is sent as given, for the server to refuse by name. */
const integer = (value: string) => (/^\d{1,16}$/.test(value) ? Number(value) : value);

/** The commands of CONTRACT.md ("Administration"), plus a few read and cap commands. */
export const COMMANDS: readonly Command[] = [
  {
    words: ['accounts', 'create'],
    required: ['name'],
    optional: ['credit', 'group', 'language'],
    request: (f) => ({
      method: 'POST',
      path: '/admin/v1/accounts',
      body: pick(f, { name: 'name', credit: 'credit', group: 'group', language: 'language' }),
    }),
  },
  {
    words: ['accounts', 'set'],
    required: ['account'],
    optional: ['language', 'group'],
    request: (f) => ({
      method: 'PATCH',
      path: `/admin/v1/accounts/${seg(f['account']!)}`,
      body: pick(f, { language: 'language', group: 'group' }),
    }),
  },
  {
    words: ['accounts', 'show'],
    required: ['account'],
    optional: [],
    request: (f) => ({ method: 'GET', path: `/admin/v1/accounts/${seg(f['account']!)}` }),
  },
  {
    words: ['keys', 'create'],
    required: ['account'],
    optional: ['name', 'daily-cap'],
    request: (f) => ({
      method: 'POST',
      path: `/admin/v1/accounts/${seg(f['account']!)}/keys`,
      body: pick(f, { name: 'name', 'daily-cap': 'dailyCap' }),
    }),
  },
  {
    words: ['keys', 'revoke'],
    required: ['key'],
    optional: [],
    request: (f) => ({ method: 'POST', path: `/admin/v1/keys/${seg(f['key']!)}/revoke` }),
  },
  {
    words: ['keys', 'set-cap'],
    required: ['key', 'daily-cap'],
    optional: [],
    request: (f) => ({
      method: 'PATCH',
      path: `/admin/v1/keys/${seg(f['key']!)}`,
      body: { dailyCap: f['daily-cap'] },
    }),
  },
  {
    words: ['keys', 'list'],
    required: ['account'],
    optional: [],
    request: (f) => ({ method: 'GET', path: `/admin/v1/accounts/${seg(f['account']!)}/keys` }),
  },
  {
    words: ['credit', 'add'],
    required: ['account', 'amount'],
    optional: ['kind', 'model', 'expires'],
    request: (f) => ({
      method: 'POST',
      path: `/admin/v1/accounts/${seg(f['account']!)}/credits`,
      body: pick(f, { amount: 'amount', kind: 'kind', model: 'model', expires: 'expiresAt' }),
    }),
  },
  {
    words: ['signing-secret', 'rotate'],
    required: ['account'],
    optional: [],
    request: (f) => ({
      method: 'POST',
      path: `/admin/v1/accounts/${seg(f['account']!)}/signing-secret/rotate`,
    }),
  },
  {
    words: ['console-token', 'create'],
    required: ['account'],
    optional: [],
    request: (f) => ({ method: 'POST', path: `/admin/v1/accounts/${seg(f['account']!)}/console-tokens` }),
  },
  {
    words: ['console-link'],
    required: ['account'],
    optional: [],
    request: (f) => ({ method: 'POST', path: `/admin/v1/accounts/${seg(f['account']!)}/console-links` }),
  },
  {
    words: ['webhooks', 'deliveries'],
    required: ['task'],
    optional: [],
    request: (f) => ({ method: 'GET', path: `/admin/v1/webhook-deliveries?taskId=${seg(f['task']!)}` }),
  },
  {
    words: ['webhooks', 'redeliver'],
    required: ['delivery'],
    optional: [],
    request: (f) => ({
      method: 'POST',
      path: `/admin/v1/webhook-deliveries/${seg(f['delivery']!)}/redeliver`,
    }),
  },
  {
    words: ['groups', 'set'],
    required: ['name', 'multiplier'],
    optional: [],
    request: (f) => ({
      method: 'PUT',
      path: `/admin/v1/groups/${seg(f['name']!)}`,
      body: { multiplier: f['multiplier'] },
    }),
  },
  {
    words: ['assets', 'limits'],
    required: ['account'],
    optional: [],
    request: (f) => ({ method: 'GET', path: `/admin/v1/accounts/${seg(f['account']!)}/asset-limits` }),
  },
  {
    words: ['assets', 'set-limits'],
    required: ['account', 'plan'],
    optional: ['bytes', 'count'],
    request: (f) => ({
      method: 'PUT',
      path: `/admin/v1/accounts/${seg(f['account']!)}/asset-limits`,
      body: {
        plan: f['plan'],
        ...(f['bytes'] !== undefined ? { bytes: integer(f['bytes']) } : {}),
        ...(f['count'] !== undefined ? { count: integer(f['count']) } : {}),
      },
    }),
  },
  {
    words: ['entities', 'create'],
    required: ['account', 'name', 'images'],
    optional: [],
    request: (f) => ({
      method: 'POST',
      path: `/admin/v1/accounts/${seg(f['account']!)}/asset-entities`,
      body: { name: f['name'], images: f['images']!.split(',').map((uri) => uri.trim()) },
    }),
  },
  {
    words: ['entities', 'list'],
    required: ['account'],
    optional: ['limit', 'cursor'],
    request: (f) => {
      const query = new URLSearchParams(
        pick(f, { limit: 'limit', cursor: 'cursor' }) as Record<string, string>,
      );
      const search = query.size ? `?${query.toString()}` : '';
      return { method: 'GET', path: `/admin/v1/accounts/${seg(f['account']!)}/asset-entities${search}` };
    },
  },
  {
    words: ['entities', 'delete'],
    required: ['account', 'entity'],
    optional: [],
    request: (f) => ({
      method: 'DELETE',
      path: `/admin/v1/accounts/${seg(f['account']!)}/asset-entities/${seg(f['entity']!)}`,
    }),
  },
];
