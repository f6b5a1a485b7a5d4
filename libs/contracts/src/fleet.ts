/**
 * The fleet: the apps of distributed mode and how one ingress routes the public API to them by path. One table
 * for every way the fleet runs: `npm run start:fleet` (the local ingress), `docker/compose.yaml` and the Helm
 * chart's Ingress (a test compares each with this table). Kubernetes Ingress paths are `Prefix` (whole path
 * segments: `/v1` matches `/v1` and `/v1/...`, not `/v1beta`) or `Exact`, so every rule here is one of them.
 */
export const FLEET_APPS = [
  'gateway',
  'compat-protocols',
  'tasks',
  'billing',
  'runner',
  'webhooks',
  'media',
  'catalog',
] as const;
export type FleetApp = (typeof FLEET_APPS)[number];

/** Replicas `npm run start:fleet` runs of each app (one unless named): two edges and two runners. */
export const FLEET_REPLICAS: Readonly<Partial<Record<FleetApp, number>>> = { gateway: 2, runner: 2 };

export interface IngressRoute {
  readonly path: string;
  readonly match: 'prefix' | 'exact';
  readonly app: FleetApp;
}

/**
 * The public paths and the app that serves each (docs/architecture.md, "Which app serves which routes").
 * The longest matching rule wins, an exact rule before a prefix rule of the same path, as in Kubernetes.
 */
export const INGRESS_ROUTES: readonly IngressRoute[] = [
  { path: '/api/v1', match: 'prefix', app: 'gateway' },
  { path: '/api/v1/common/upload-url', match: 'exact', app: 'media' },
  { path: '/api/v1/files', match: 'prefix', app: 'media' },
  { path: '/api/v1/assets', match: 'prefix', app: 'media' },
  { path: '/api/v1/jobs', match: 'prefix', app: 'tasks' },
  { path: '/api/v1/usage', match: 'exact', app: 'tasks' },
  { path: '/api/v1/common/download-url', match: 'exact', app: 'tasks' },
  { path: '/api/v1/chat/credit', match: 'exact', app: 'billing' },
  { path: '/api/v1/models', match: 'prefix', app: 'catalog' },
  { path: '/v1', match: 'prefix', app: 'compat-protocols' },
  // The model list of the OpenAI protocol is the catalog's, served with the catalog routes. Exact, not Prefix:
  // everything below it stays compat-protocols' through `/v1`, among it Google's
  // `/v1/models/{model}:generateContent` and `:streamGenerateContent` (what @google/genai 3.x calls by default).
  { path: '/v1/models', match: 'exact', app: 'catalog' },
  { path: '/v1beta', match: 'prefix', app: 'compat-protocols' },
  { path: '/console/v1', match: 'prefix', app: 'gateway' },
  { path: '/console/v1/catalog', match: 'prefix', app: 'catalog' },
  { path: '/console/v1/webhook-endpoints', match: 'prefix', app: 'webhooks' },
  { path: '/console/v1/webhook-events', match: 'prefix', app: 'webhooks' },
  { path: '/console/v1/webhook-deliveries', match: 'prefix', app: 'webhooks' },
  { path: '/console/v1/balance', match: 'exact', app: 'billing' },
  { path: '/console/v1/usage', match: 'exact', app: 'tasks' },
  { path: '/console/v1/tasks', match: 'prefix', app: 'tasks' },
  { path: '/admin/v1', match: 'prefix', app: 'gateway' },
  { path: '/admin/v1/webhook-deliveries', match: 'prefix', app: 'webhooks' },
  { path: '/objects/v1', match: 'prefix', app: 'gateway' },
  { path: '/healthz', match: 'exact', app: 'gateway' },
  { path: '/readyz', match: 'exact', app: 'gateway' },
  { path: '/openapi.json', match: 'exact', app: 'gateway' },
];

/**
 * Public routes that no ingress rule can send to their owner: a parameter comes before the owner's segment,
 * inside a prefix another app serves (`/admin/v1/accounts/{id}/credits` is billing's, `/admin/v1/accounts` the
 * gateway's). The app the ingress sends them to (`ingressAppOf`) forwards each to its owner over the service
 * transport (`http.forward`), which serves it as if it had come to its own port. Fastify path syntax.
 */
export interface ForwardedRoute {
  readonly path: string;
  readonly app: FleetApp;
}

export const FORWARDED_ROUTES: readonly ForwardedRoute[] = [
  { path: '/admin/v1/accounts/:accountId/credits', app: 'billing' },
  { path: '/admin/v1/accounts/:accountId/asset-limits', app: 'media' },
  { path: '/admin/v1/accounts/:accountId/asset-entities', app: 'media' },
  { path: '/admin/v1/accounts/:accountId/asset-entities/:entityId', app: 'media' },
];

/** Where a path matching no rule goes: the gateway answers it (404 in the caller's protocol shape). */
export const INGRESS_DEFAULT_APP: FleetApp = 'gateway';

function matches(route: IngressRoute, path: string): boolean {
  if (route.match === 'exact') return path === route.path;
  return path === route.path || path.startsWith(`${route.path}/`);
}

/** The app that serves `path` (no query string), by the rules above. */
export function ingressAppOf(path: string): FleetApp {
  let best: IngressRoute | undefined;
  for (const route of INGRESS_ROUTES) {
    if (!matches(route, path)) continue;
    if (
      !best ||
      route.path.length > best.path.length ||
      (route.path.length === best.path.length && route.match === 'exact')
    ) {
      best = route;
    }
  }
  return best?.app ?? INGRESS_DEFAULT_APP;
}
