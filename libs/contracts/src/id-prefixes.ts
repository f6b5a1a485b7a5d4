/** Public id prefixes. Clients see them; never change one. */
export const IdPrefix = {
  request: 'req',
  event: 'evt',
  task: 'job',
  account: 'acc',
  apiKey: 'key',
  consoleSession: 'cses',
  consoleLink: 'csl',
  adminToken: 'adm',
  fundingSource: 'fund',
  ledgerEntry: 'led',
  file: 'fil',
  asset: 'ast',
  assetEntity: 'ent',
  assetCollection: 'col',
  webhookEndpoint: 'whe',
  webhookMessage: 'msg',
  webhookDelivery: 'whd',
} as const;

export type IdPrefixName = keyof typeof IdPrefix;

/** Prefix of every API key; the rest is `<keyId body>_<secret>`. */
export const API_KEY_PREFIX = 'gts_';
/** Prefix of console session tokens and admin tokens. */
export const CONSOLE_TOKEN_PREFIX = 'gcs_';
export const ADMIN_TOKEN_PREFIX = 'gadm_';
/** Prefix of the one-time tokens of console sign-in links. */
export const CONSOLE_LINK_PREFIX = 'gcl_';
