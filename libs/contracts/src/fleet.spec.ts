import { FLEET_APPS, FORWARDED_ROUTES, INGRESS_ROUTES, ingressAppOf } from './fleet';

describe('the ingress routes', () => {
  it.each([
    ['/api/v1/jobs/createTask', 'tasks'],
    ['/api/v1/jobs', 'tasks'],
    ['/api/v1/jobsx', 'gateway'],
    ['/api/v1/usage', 'tasks'],
    ['/api/v1/chat/credit', 'billing'],
    ['/api/v1/models/local/sketch', 'catalog'],
    ['/console/v1/catalog/models', 'catalog'],
    ['/console/v1/webhook-endpoints/wep_1/rotate', 'webhooks'],
    ['/admin/v1/webhook-deliveries', 'webhooks'],
    ['/admin/v1/accounts/acc_1/credits', 'gateway'],
    ['/api/v1/common/upload-url', 'media'],
    ['/api/v1/common/download-url', 'tasks'],
    ['/api/v1/files/fil_1/commit', 'media'],
    ['/api/v1/assets/library', 'media'],
    ['/api/v1/filesystem', 'gateway'],
    ['/v1/chat/completions', 'compat-protocols'],
    ['/v1/models', 'catalog'],
    ['/v1/models/x', 'compat-protocols'],
    ['/v1/models/local/echo/chat:generateContent', 'compat-protocols'],
    ['/v1/models/local/echo/chat:streamGenerateContent', 'compat-protocols'],
    ['/v1/models/local%2Fecho%2Fchat:generateContent', 'compat-protocols'],
    ['/v1beta/models/m:generateContent', 'compat-protocols'],
    ['/v1betax', 'gateway'],
    ['/console/v1/session', 'gateway'],
    ['/admin/v1/accounts', 'gateway'],
    ['/healthz', 'gateway'],
    ['/nowhere', 'gateway'],
  ])('%s goes to %s', (path, app) => {
    expect(ingressAppOf(path)).toBe(app);
  });

  it('names only apps of the fleet, each path once', () => {
    for (const route of INGRESS_ROUTES) expect(FLEET_APPS).toContain(route.app);
    const keys = INGRESS_ROUTES.map((route) => `${route.match} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('forwards only routes the ingress cannot send to their owner, each to an app of the fleet', () => {
    for (const route of FORWARDED_ROUTES) {
      expect(FLEET_APPS).toContain(route.app);
      const concrete = route.path.replace(/:[A-Za-z]+/g, 'x_1');
      expect(ingressAppOf(concrete)).not.toBe(route.app);
    }
  });
});
