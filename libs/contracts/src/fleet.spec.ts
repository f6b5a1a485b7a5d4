import { FLEET_APPS, INGRESS_ROUTES, ingressAppOf } from './fleet';

describe('the ingress routes', () => {
  it.each([
    ['/api/v1/jobs/createTask', 'gateway'],
    ['/api/v1/common/upload-url', 'media'],
    ['/api/v1/common/download-url', 'gateway'],
    ['/api/v1/files/fil_1/commit', 'media'],
    ['/api/v1/assets/library', 'media'],
    ['/api/v1/filesystem', 'gateway'],
    ['/v1/chat/completions', 'compat-protocols'],
    ['/v1/models', 'gateway'],
    ['/v1/models/x', 'compat-protocols'],
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
});
