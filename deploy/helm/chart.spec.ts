import {
  FLEET_APPS,
  FLEET_REPLICAS,
  INGRESS_DEFAULT_APP,
  INGRESS_ROUTES,
  ingressAppOf,
  type FleetApp,
} from '@gen/contracts';
import { ConfigSchema, loadConfig } from '@gen/core';
import { SERVICE_OWNERS } from '@gen/transport';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  chart,
  helmBinary,
  helmTemplate,
  productionValues,
  render,
  root,
  type Manifest,
} from '../support/manifests';

interface Probe {
  readonly httpGet?: { path: string; port: string | number };
}
interface Container {
  readonly name: string;
  readonly image: string;
  readonly args?: string[];
  readonly ports?: { name: string; containerPort: number }[];
  readonly envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readonly env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string } };
  }[];
  readonly livenessProbe?: Probe;
  readonly readinessProbe?: Probe;
  readonly startupProbe?: Probe;
  readonly resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  readonly metadata: { annotations?: Record<string, string> };
  readonly spec: {
    containers: Container[];
    terminationGracePeriodSeconds?: number;
    securityContext?: Record<string, unknown>;
  };
}
interface IngressPath {
  readonly path: string;
  readonly pathType: string;
  readonly backend: { service: { name: string; port: { name?: string; number?: number } } };
}

const SECRET_SETTINGS = Object.entries(ConfigSchema.properties)
  .filter(([, schema]) => (schema as { 'x-secret'?: boolean })['x-secret'])
  .map(([name]) => name)
  .sort();
/** Kept in the Secret beside its pair, though not secret on its own. */
const SECRET_SIDE = [...SECRET_SETTINGS, 'S3_ACCESS_KEY_ID'].sort();

const chartYaml = parse(readFileSync(join(chart, 'Chart.yaml'), 'utf8')) as { appVersion: string };

const of = (manifests: Manifest[], kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);
const named = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the render`);
  return found;
};
const template = (m: Manifest): PodTemplate => (m.spec as { template: PodTemplate }).template;
const decode = (data: Record<string, string> | null | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );

const PREFIX = 'gen-generation-service';
const appName = (app: FleetApp): string => `${PREFIX}-${app}`;
const appOfService = (name: string): string => name.slice(PREFIX.length + 1);

/** Values that set every secret the chart can hold, so that the Secret shows where each goes. */
const withSecrets = [
  '--set',
  'database.url=postgresql://gen:pw@db:5432/gen',
  '--set',
  'redis.url=redis://:pw@redis:6379',
  '--set',
  's3.accessKeyId=AKIAEXAMPLE',
  '--set',
  's3.secretAccessKey=example-secret-access-key',
  '--set',
  'secrets.providerCredentials.OPENAI_API_KEY=sk-example',
  '--set',
  'kafka.brokers=kafka:9092',
];

describe('the Helm chart', () => {
  beforeAll(() => {
    helmBinary(); // unpacks helm on a fresh clone (CI) before the first render
  });

  it('passes helm lint --strict with the default values and with values-production.yaml', () => {
    for (const args of [[], ['-f', productionValues]]) {
      const out = execHelm(['lint', '--strict', chart, ...args]);
      expect(out).toContain('1 chart(s) linted, 0 chart(s) failed');
    }
  });

  describe.each([
    ['the default values', [] as string[]],
    ['values-production.yaml', ['-f', productionValues]],
  ])('rendered with %s', (_label, args) => {
    let manifests: Manifest[];
    beforeAll(() => {
      manifests = render(args);
    });

    it('has a Deployment, a Service, an HPA and a PodDisruptionBudget for every app of the fleet, and no other', () => {
      for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
        expect(
          of(manifests, kind)
            .map((m) => m.metadata.name)
            .sort(),
        ).toEqual(FLEET_APPS.map(appName).sort());
      }
      for (const app of FLEET_APPS) {
        const hpa = named(manifests, 'HorizontalPodAutoscaler', appName(app)).spec as {
          scaleTargetRef: { kind: string; name: string };
          minReplicas: number;
          maxReplicas: number;
        };
        expect(hpa.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: appName(app) });
        expect(hpa.maxReplicas).toBeGreaterThanOrEqual(hpa.minReplicas);
        // The HPA owns the replica count: a Deployment that also set it would be reset at each upgrade.
        expect(named(manifests, 'Deployment', appName(app)).spec).not.toHaveProperty('replicas');
        const selector = (
          named(manifests, 'PodDisruptionBudget', appName(app)).spec as {
            selector: { matchLabels: Record<string, string> };
          }
        ).selector.matchLabels;
        expect(selector).toEqual(
          (named(manifests, 'Service', appName(app)).spec as { selector: Record<string, string> }).selector,
        );
        expect(selector['app.kubernetes.io/component']).toBe(app);
      }
    });

    it('runs each app by its argument, with its ports, probes, resources and a non-root, read-only container', () => {
      for (const app of FLEET_APPS) {
        const pod = template(named(manifests, 'Deployment', appName(app)));
        expect(pod.spec.containers).toHaveLength(1);
        for (const container of pod.spec.containers) {
          expect(container.args).toEqual([app]);
          expect(container.ports?.map((p) => p.name).sort()).toEqual(['http', 'metrics', 'service-call']);
          expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
          expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
          expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
          expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
          expect(container.resources?.limits?.['memory']).toMatch(/^\d+(Mi|Gi)$/);
          expect(container).toMatchObject({
            securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          });
        }
        expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
        const service = named(manifests, 'Service', appName(app)).spec as {
          ports: { name: string; targetPort: string }[];
        };
        expect(service.ports.map((p) => [p.name, p.targetPort])).toEqual([
          ['http', 'http'],
          ['service-call', 'service-call'],
        ]);
      }
    });

    it('pins the image of every container to a version: never latest, never empty', () => {
      const containers = [...of(manifests, 'Deployment'), ...of(manifests, 'Job')].flatMap(
        (m) => template(m).spec.containers,
      );
      expect(containers.length).toBe(FLEET_APPS.length + 1);
      for (const { image } of containers) {
        const match = /^[^@]+:([^:@/]+)(@sha256:[0-9a-f]{64})?$/.exec(image);
        expect(match).not.toBeNull();
        expect(match![1]).not.toBe('latest');
      }
      expect(new Set(containers.map((c) => c.image)).size).toBe(1);
    });

    it('keeps every secret setting out of every ConfigMap', () => {
      expect(SECRET_SETTINGS).toEqual([
        'ADMIN_TOKEN',
        'DATABASE_URL',
        'QUOTE_SIGNING_KEY',
        'REDIS_URL',
        'S3_SECRET_ACCESS_KEY',
      ]);
      const configMaps = of(manifests, 'ConfigMap');
      expect(configMaps.length).toBeGreaterThan(0);
      for (const configMap of configMaps) {
        for (const key of SECRET_SIDE) expect(Object.keys(configMap.data ?? {})).not.toContain(key);
      }
      // Nor as a plain value of a container (a per-app env entry).
      for (const m of [...of(manifests, 'Deployment'), ...of(manifests, 'Job')]) {
        for (const container of template(m).spec.containers) {
          for (const entry of container.env ?? []) {
            if (SECRET_SIDE.includes(entry.name)) expect(entry.value).toBeUndefined();
          }
        }
      }
    });

    it('gives every Deployment a termination grace longer than its drain (SHUTDOWN_GRACE_MS)', () => {
      const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
      const graceMs = Number(config['SHUTDOWN_GRACE_MS']);
      expect(graceMs).toBeGreaterThan(0);
      for (const app of FLEET_APPS) {
        const pod = template(named(manifests, 'Deployment', appName(app)));
        const preStop = (
          pod.spec.containers[0] as unknown as {
            lifecycle: { preStop: { exec: { command: string[] } } };
          }
        ).lifecycle.preStop.exec.command;
        expect(preStop[0]).toBe('sleep');
        // The grace period counts from the preStop pause: both must fit in it.
        expect(pod.spec.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(
          graceMs + Number(preStop[1]) * 1000,
        );
      }
    });

    it('routes the Ingress by the fleet table: every path, its match and its app', () => {
      const ingress = of(manifests, 'Ingress');
      expect(ingress).toHaveLength(1);
      const rules = (ingress[0]!.spec as { rules: { host?: string; http: { paths: IngressPath[] } }[] })
        .rules;
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        const paths = rule.http.paths.map((p) => ({
          path: p.path,
          match: p.pathType.toLowerCase(),
          app: appOfService(p.backend.service.name),
          port: p.backend.service.port.name,
        }));
        const fallback = paths.filter((p) => p.path === '/');
        expect(fallback).toEqual([{ path: '/', match: 'prefix', app: INGRESS_DEFAULT_APP, port: 'http' }]);
        const sort = <T extends { path: string; match: string }>(list: T[]): T[] =>
          [...list].sort((a, b) => `${a.path} ${a.match}`.localeCompare(`${b.path} ${b.match}`));
        expect(sort(paths.filter((p) => p.path !== '/'))).toEqual(
          sort(INGRESS_ROUTES.map((r) => ({ ...r, port: 'http' }))),
        );
      }
    });

    it('sends every path where ingressAppOf does, by Kubernetes path matching', () => {
      const paths = (of(manifests, 'Ingress')[0]!.spec as { rules: { http: { paths: IngressPath[] } }[] })
        .rules[0]!.http.paths;
      // Kubernetes: Exact is the whole path; Prefix is whole segments (`/v1` is `/v1` and `/v1/...`); the longest
      // path wins, Exact before Prefix of the same length.
      const appOfPath = (path: string): string | undefined => {
        const matching = paths.filter((p) =>
          p.pathType === 'Exact'
            ? path === p.path
            : p.path === '/' || path === p.path || path.startsWith(`${p.path}/`),
        );
        matching.sort(
          (a, b) =>
            b.path.length - a.path.length || Number(b.pathType === 'Exact') - Number(a.pathType === 'Exact'),
        );
        return matching[0] && appOfService(matching[0].backend.service.name);
      };
      const samples = new Set([
        '/',
        '/unknown',
        '/v1beta/models/m:generateContent',
        '/v1/models/local/echo/chat:generateContent',
        '/v1/models/local/echo/chat:streamGenerateContent',
        '/api/v1/files/f_1/commit',
      ]);
      for (const { path } of INGRESS_ROUTES) {
        for (const p of [path, `${path}/`, `${path}/x`, `${path}x`, path.slice(0, -1) || '/']) samples.add(p);
      }
      for (const path of samples) expect([path, appOfPath(path)]).toEqual([path, ingressAppOf(path)]);
      // Google's methods under /v1/models/ (what @google/genai 3.x calls) reach compat-protocols; only the model
      // list itself is the catalog's.
      expect(appOfPath('/v1/models/local/echo/chat:generateContent')).toBe('compat-protocols');
      expect(appOfPath('/v1/models')).toBe('catalog');
    });

    it('serves /metrics on a pod port of its own, which no Service and so no Ingress path reaches', () => {
      const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
      const metricsPort = config['METRICS_PORT'];
      expect(metricsPort).toMatch(/^\d+$/);
      expect(metricsPort).not.toBe(config['PORT']);
      for (const app of FLEET_APPS) {
        const pod = template(named(manifests, 'Deployment', appName(app)));
        const ports = pod.spec.containers[0]!.ports ?? [];
        expect(ports).toContainEqual(
          expect.objectContaining({ name: 'metrics', containerPort: Number(metricsPort) }),
        );
        expect(pod.metadata.annotations).toMatchObject({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': metricsPort,
          'prometheus.io/path': '/metrics',
        });
        const service = named(manifests, 'Service', appName(app)).spec as { ports: { name: string }[] };
        expect(service.ports.map((p) => p.name)).not.toContain('metrics');
      }
      // Every Ingress path, the catch-all `/` included, goes to an `http` port, where /metrics is not served.
      const rules = (of(manifests, 'Ingress')[0]!.spec as { rules: { http: { paths: IngressPath[] } }[] })
        .rules;
      for (const rule of rules)
        for (const path of rule.http.paths) expect(path.backend.service.port).toEqual({ name: 'http' });
    });

    it('migrates every schema in a pre-install and pre-upgrade hook Job before the apps start', () => {
      const jobs = of(manifests, 'Job');
      expect(jobs).toHaveLength(1);
      const job = jobs[0]!;
      expect(job.metadata.annotations?.['helm.sh/hook']?.split(',').sort()).toEqual([
        'pre-install',
        'pre-upgrade',
      ]);
      const container = template(job).spec.containers[0]!;
      expect(container.args).toEqual(['migrate']);
      expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      const databaseUrl = container.env?.find((e) => e.name === 'DATABASE_URL');
      expect(databaseUrl?.value).toBeUndefined();
      const from = databaseUrl?.valueFrom?.secretKeyRef;
      expect(from?.key).toBe('DATABASE_URL');
      // Its Secret exists when hooks run: yours, or a hook Secret made just before the Job.
      const hookSecret = of(manifests, 'Secret').find((s) => s.metadata.name === from?.name);
      if (hookSecret) {
        expect(hookSecret.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
        expect(Number(hookSecret.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(
          Number(job.metadata.annotations?.['helm.sh/hook-weight'] ?? 0),
        );
      } else {
        expect(from?.name).toBe('generation-service-secrets');
      }
    });
  });

  it('defaults the image tag to the appVersion and runs two edges and two runners, one of the others', () => {
    // The appVersion is the service's version, the tag compose builds and values-production pins.
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(chartYaml.appVersion).toBe(version);
    const manifests = render([]);
    const image = template(named(manifests, 'Deployment', appName('gateway'))).spec.containers[0]!.image;
    expect(image).toBe(`generation-service:${chartYaml.appVersion}`);
    for (const app of FLEET_APPS) {
      const hpa = named(manifests, 'HorizontalPodAutoscaler', appName(app)).spec as { minReplicas: number };
      expect(hpa.minReplicas).toBe(FLEET_REPLICAS[app] ?? 1);
    }
  });

  it('puts every setting of the service in the ConfigMap or the Secret, each valid for the app', () => {
    const manifests = render(withSecrets);
    const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
    const secret = decode(named(manifests, 'Secret', `${PREFIX}-secrets`).data);
    expect([...Object.keys(config), ...SECRET_SIDE].sort()).toEqual(
      Object.keys(ConfigSchema.properties).sort(),
    );
    expect(Object.keys(secret).sort()).toEqual([...SECRET_SIDE, 'OPENAI_API_KEY'].sort());
    expect(secret['ADMIN_TOKEN']).toMatch(/^gadm_[A-Za-z0-9]{40}$/);
    expect(secret['QUOTE_SIGNING_KEY']!.length).toBeGreaterThanOrEqual(32);
    // What a pod's environment would hold passes the service's own validation.
    const loaded = loadConfig({ ...config, ...secret });
    expect(loaded).toMatchObject({
      MODE: 'distributed',
      HOST: '0.0.0.0',
      PORT: 8080,
      DATA_DIR: '/data',
      SHUTDOWN_GRACE_MS: 10000,
      DATABASE_URL: 'postgresql://gen:pw@db:5432/gen',
      KAFKA_BROKERS: 'kafka:9092',
      S3_FORCE_PATH_STYLE: false,
      BODY_LIMIT_BYTES: 1048576,
    });
    // The migrations Job's hook Secret carries only the database URL.
    expect(decode(named(manifests, 'Secret', `${PREFIX}-migrations`).data)).toEqual({
      DATABASE_URL: 'postgresql://gen:pw@db:5432/gen',
    });
  });

  it('points the service calls of every app at the Services of the apps that answer them', () => {
    const manifests = render([]);
    const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
    expect(config['SERVICE_CALL_PORT']).toBe('4000');
    const addresses = config['SERVICE_ADDRESSES']!.split(',').map((entry) => entry.split('='));
    expect(addresses.map(([app]) => app)).toEqual([...new Set(Object.values(SERVICE_OWNERS))]);
    for (const [app, address] of addresses) {
      const [host, port] = address!.split(':');
      expect(host).toBe(appName(app as FleetApp));
      const ports = (named(manifests, 'Service', host!).spec as { ports: { name: string; port: number }[] })
        .ports;
      expect(ports).toContainEqual(expect.objectContaining({ name: 'service-call', port: Number(port) }));
    }
  });

  it('mounts the catalog ConfigMap only into the catalog app, the one app that reads the file', () => {
    const manifests = render(['--set', 'catalog.existingConfigMap=my-catalog']);
    expect(named(manifests, 'ConfigMap', `${PREFIX}-config`).data!['CATALOG_FILE']).toBe(
      '/etc/generation-service/catalog/models.json',
    );
    for (const app of FLEET_APPS) {
      const pod = template(named(manifests, 'Deployment', appName(app))) as unknown as {
        spec: { volumes: { name: string; configMap?: { name: string } }[] };
      };
      const catalog = pod.spec.volumes.find((volume) => volume.name === 'catalog');
      expect({ app, catalog: catalog?.configMap?.name }).toEqual({
        app,
        catalog: app === 'catalog' ? 'my-catalog' : undefined,
      });
    }
  });

  it('with existingSecret makes no Secret of its own and every app and the Job read yours', () => {
    const manifests = render(['-f', productionValues]);
    expect(of(manifests, 'Secret')).toEqual([]);
    const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
    expect(
      loadConfig({
        ...config,
        DATABASE_URL: 'postgresql://gen@db:5432/gen',
        REDIS_URL: 'rediss://redis:6380',
      }),
    ).toMatchObject({
      SHUTDOWN_GRACE_MS: 30000,
      REDIS_KEY_PREFIX: 'gen:',
      S3_BUCKET: 'generation-media-prod',
    });
    for (const app of FLEET_APPS) {
      const container = template(named(manifests, 'Deployment', appName(app))).spec.containers[0]!;
      expect(container.envFrom).toEqual([
        { configMapRef: { name: `${PREFIX}-config` } },
        { secretRef: { name: 'generation-service-secrets' } },
      ]);
    }
    const runner = template(named(manifests, 'Deployment', appName('runner'))).spec.containers[0]!;
    expect(runner.env).toEqual([{ name: 'RUNNER_CONCURRENCY', value: '16' }]);
  });

  it('keeps given secrets as given, and numbers from --set as digits', () => {
    const manifests = render([
      '--set',
      'secrets.adminToken=gadm_0123456789abcdefghijklmnopqrstuvwxyz0123',
      '--set',
      'secrets.quoteSigningKey=0123456789abcdef0123456789abcdef',
      '--set',
      'config.BODY_LIMIT_BYTES=2097152',
      '--set',
      'shutdownGraceMs=25000',
    ]);
    expect(decode(named(manifests, 'Secret', `${PREFIX}-secrets`).data)).toEqual({
      ADMIN_TOKEN: 'gadm_0123456789abcdefghijklmnopqrstuvwxyz0123',
      QUOTE_SIGNING_KEY: '0123456789abcdef0123456789abcdef',
    });
    const config = named(manifests, 'ConfigMap', `${PREFIX}-config`).data!;
    expect(config['BODY_LIMIT_BYTES']).toBe('2097152');
    expect(config['SHUTDOWN_GRACE_MS']).toBe('25000');
    expect(
      template(named(manifests, 'Deployment', appName('gateway'))).spec.terminationGracePeriodSeconds,
    ).toBe(35);
  });

  it.each([
    ['image tag latest', ['--set', 'image.tag=latest'], "at '/image/tag'"],
    ['a secret setting in config', ['--set', 'config.REDIS_URL=redis://r:6379'], 'REDIS_URL'],
    ['a secret setting as an app env', ['--set', 'apps.gateway.env.ADMIN_TOKEN=x'], 'ADMIN_TOKEN'],
    ['an app that is not of the fleet', ['--set', 'apps.search.replicas=1'], 'search'],
    ['the ingress routing to a disabled app', ['--set', 'apps.media.enabled=false'], 'keep that app enabled'],
  ])('refuses %s', (_label, args, message) => {
    const rendered = helmTemplate(args);
    expect(rendered.status).not.toBe(0);
    expect(rendered.stderr).toContain(message);
  });
});

function execHelm(args: string[]): string {
  const result = spawnSync(helmBinary(), args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`helm ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout + result.stderr;
}
