import {
  FLEET_APPS,
  FLEET_REPLICAS,
  INGRESS_DEFAULT_APP,
  INGRESS_ROUTES,
  ingressAppOf,
} from '@gen/contracts';
import { createScratchPostgres, describeWithPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { root } from './support/manifests';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's stages, each a list of instructions (continuation lines joined, comments dropped). */
function dockerfileStages(text: string): Instruction[][] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (!line && !current)) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  const stages: Instruction[][] = [];
  for (const line of logical) {
    if (!line) continue;
    const [keyword, ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** An exec-form argument list (`["a", "b"]`), or the shell form's words. */
function words(args: string): string[] {
  const trimmed = args.trim();
  return trimmed.startsWith('[') ? (JSON.parse(trimmed) as string[]) : trimmed.split(/\s+/);
}

const dockerfile = readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8');
const stages = dockerfileStages(dockerfile);
const runtime = stages.at(-1)!;
const only = (keyword: string): Instruction => {
  const found = runtime.filter((i) => i.keyword === keyword);
  expect(found).toHaveLength(1);
  return found[0]!;
};

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  healthcheck?: { disable?: boolean; test?: string[] };
  volumes?: string[];
  ports?: string[];
  stop_grace_period?: string;
}
const compose = parse(readFileSync(join(root, 'docker', 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

interface Location {
  readonly exact: boolean;
  readonly path: string;
  readonly upstream: string;
}

/** The ingress's nginx configuration: its upstreams (name -> compose service:port) and locations. */
function nginxConfig(text: string): { upstreams: Map<string, string>; locations: Location[] } {
  const upstreams = new Map<string, string>();
  for (const m of text.matchAll(/upstream\s+([\w-]+)\s*\{\s*server\s+([\w.:-]+);\s*\}/g))
    upstreams.set(m[1]!, m[2]!);
  const locations: Location[] = [];
  for (const m of text.matchAll(/location\s+(=\s+)?(\S+)\s*\{\s*proxy_pass\s+http:\/\/([\w-]+);\s*\}/g))
    locations.push({ exact: Boolean(m[1]), path: m[2]!, upstream: m[3]! });
  return { upstreams, locations };
}

/** nginx's choice among prefix and exact locations: an exact match, else the longest matching prefix. */
function nginxRoute(locations: readonly Location[], path: string): string | undefined {
  const exact = locations.find((l) => l.exact && l.path === path);
  if (exact) return exact.upstream;
  const prefixes = locations.filter((l) => !l.exact && path.startsWith(l.path));
  prefixes.sort((a, b) => b.path.length - a.path.length);
  return prefixes[0]?.upstream;
}

describe('docker/Dockerfile', () => {
  it('builds in one stage and runs in another, as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const users = runtime.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.trim();
    expect(user.split(':')[0]).not.toMatch(/^(root|0)$/);
    // Nothing runs as root after the last USER: it comes after every RUN of the runtime stage.
    const lastRun = runtime.map((i) => i.keyword).lastIndexOf('RUN');
    expect(runtime.indexOf(users.at(-1)!)).toBeGreaterThan(lastRun);
    // The runtime stage takes files from the build stage, never its npm or sources.
    expect(
      runtime.filter((i) => i.keyword === 'COPY' && i.args.includes('--from=build')).length,
    ).toBeGreaterThan(0);
  });

  it('checks /healthz with Node (no curl in a slim image)', () => {
    const healthcheck = only('HEALTHCHECK').args;
    const cmd = words(healthcheck.slice(healthcheck.indexOf('CMD') + 3));
    expect(cmd[0]).toBe('node');
    expect(cmd.join(' ')).toContain('/healthz');
    expect(cmd.join(' ')).not.toMatch(/\b(curl|wget)\b/);
    expect(healthcheck).toMatch(/--interval=\d+s/);
  });

  it('starts an app through tini and the entry script, never npm', () => {
    const entrypoint = words(only('ENTRYPOINT').args);
    const cmd = words(only('CMD').args);
    expect(entrypoint[0]).toBe('/usr/bin/tini');
    expect(entrypoint[1]).toBe('--');
    for (const word of [...entrypoint, ...cmd]) expect(word).not.toMatch(/\bnp[mx]\b/);
    // The script the entrypoint runs is docker/entrypoint.sh, and it execs node.
    const copy = runtime.find((i) => i.keyword === 'COPY' && i.args.includes('docker/entrypoint.sh'));
    expect(copy?.args.split(/\s+/).at(-1)).toBe(entrypoint[2]);
    const script = readFileSync(join(root, 'docker', 'entrypoint.sh'), 'utf8');
    expect(script).not.toMatch(/\bnp[mx]\b/);
    expect(script).toContain('exec node "dist/apps/$app/src/main.js" "$@"');
  });

  it('ignores installed and built files in the build context, but keeps every workspace manifest', () => {
    const lines = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const ignored of ['**/node_modules', 'dist', '.git', '.tools']) expect(lines).toContain(ignored);
    const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    for (const workspace of workspaces.filter((w) => !w.includes('*'))) {
      if (lines.includes(`${workspace}/**`)) expect(lines).toContain(`!${workspace}/package.json`);
      expect(lines).not.toContain(workspace);
    }
    expect(lines.filter((l) => /^(apps|libs)\b/.test(l))).toEqual([]);
  });

  describe("the runtime stage's files", () => {
    let home: string;
    beforeAll(() => {
      execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
      // The runtime's layout, made from this checkout as its COPY --from=build lines say (WORKDIR /app): the
      // node_modules here are the full ones, so this checks the files, and the next test the dependencies.
      home = mkdtempSync(join(tmpdir(), 'gts-runtime-'));
      for (const copy of runtime.filter((i) => i.keyword === 'COPY' && i.args.includes('--from=build'))) {
        const [source, target] = copy.args
          .split(/\s+/)
          .filter((w) => !w.startsWith('--'))
          .map((w) => w.replace(/^\.\//, ''));
        if (!source!.startsWith('/src/')) continue; // the Node binary: this process's own
        const from = join(root, source!.slice('/src/'.length));
        const to = join(home, target!);
        if (source === '/src/node_modules') symlinkSync(from, to);
        else cpSync(from, to, { recursive: true });
      }
    });
    afterAll(() => rmSync(home, { recursive: true, force: true }));

    function entry(args: string[], env: Record<string, string> = {}): ChildProcess {
      return spawn('sh', [join(root, 'docker', 'entrypoint.sh'), ...args], {
        env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, GTS_HOME: home, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    }
    function finished(child: ChildProcess): Promise<{ code: number | null; out: string }> {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      return new Promise((done) => child.on('close', (code) => done({ code, out })));
    }

    it('hold the built web console where the gateway looks for it', () => {
      // The runtime's own compiled module, as the gateway loads it: the console it finds from its place in dist/.
      const files = join(home, 'dist', 'libs', 'console-web', 'src', 'console-files.js');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { defaultConsoleDir, loadConsoleFiles } = require(files) as {
        defaultConsoleDir(): string;
        loadConsoleFiles(dir: string): {
          index: { contentType: string };
          assets: ReadonlyMap<string, unknown>;
        } | null;
      };
      expect(defaultConsoleDir()).toBe(join(home, 'dist', 'console-web'));
      const loaded = loadConsoleFiles(defaultConsoleDir());
      expect(loaded?.index.contentType).toBe('text/html; charset=utf-8');
      expect([...loaded!.assets.keys()].some((name) => /^assets\/.+\.js$/.test(name))).toBe(true);
    });

    it('hold every app, and the entry script refuses a missing or unknown one', async () => {
      expect(readdirSync(join(home, 'dist', 'apps')).sort()).toEqual(readdirSync(join(root, 'apps')).sort());
      const none = await finished(entry([]));
      expect(none.code).toBe(2);
      expect(none.out).toMatch(/^gts-entrypoint: name the app .*gateway.*migrate/);
      const unknown = await finished(entry(['search']));
      expect(unknown).toEqual({
        code: 2,
        out: expect.stringContaining("gts-entrypoint: unknown app 'search'") as unknown as string,
      });
      // APP names the app when no argument does; arguments after the app's name go to it.
      const cli = await finished(entry(['cli', 'keys', 'lits'], { DATA_DIR: home }));
      expect(cli.code).not.toBe(0);
      expect(cli.out).toContain('unknown command \\"keys lits\\"');
    });

    it('need only production dependencies: every package an app requires is in dependencies', () => {
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        optionalDependencies: Record<string, string>;
      };
      const production = new Set([
        ...Object.keys(pkg.dependencies),
        ...Object.keys(pkg.optionalDependencies),
      ]);
      const builtins = new Set(builtinModules);
      const required = new Set<string>();
      const seen = new Set<string>();
      const queue = readdirSync(join(home, 'dist', 'apps')).map((app) =>
        join(home, 'dist', 'apps', app, 'src', 'main.js'),
      );
      while (queue.length > 0) {
        const file = queue.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const code = readFileSync(file, 'utf8');
        for (const m of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
          const spec = m[1]!;
          if (spec.startsWith('.')) {
            const base = resolve(dirname(file), spec);
            const next = [`${base}.js`, join(base, 'index.js'), base].find((f) => existsSync(f));
            if (!next) throw new Error(`${file} requires ${spec}, which the runtime does not hold`);
            queue.push(next);
          } else if (!spec.startsWith('node:') && !builtins.has(spec)) {
            const parts = spec.split('/');
            required.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
          }
        }
      }
      expect(seen.size).toBeGreaterThan(100);
      expect([...required].filter((name) => !production.has(name))).toEqual([]);
    });

    describeWithPostgres('against a fresh PostgreSQL database', () => {
      let database: ScratchDatabase;
      beforeAll(async () => {
        database = await createScratchPostgres();
      });
      afterAll(async () => {
        await database?.drop();
      });

      it('migrate and an app run from them: migrations, the shipped catalog, health, drain', async () => {
        const env = { MODE: 'distributed', DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
        const migrated = await finished(entry(['migrate'], env));
        expect(migrated.code).toBe(0);
        expect(migrated.out).toMatch(/^migrate: 7 schemas current, \d+ migration\(s\) applied/);

        // The catalog app: it calls only the gateway (API keys of its routes), never at start.
        const catalog = entry([], {
          ...env,
          APP: 'catalog',
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: home,
          REDIS_URL: process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
          SERVICE_ADDRESSES: 'gateway=127.0.0.1:9',
          SERVICE_CALL_PORT: '0',
        });
        const exit = finished(catalog);
        try {
          const baseUrl = await new Promise<string>((done, fail) => {
            let out = '';
            catalog.stdout!.on('data', (c: Buffer) => {
              out += c.toString();
              const m = /listening on (http:\/\/\S+)\n/.exec(out);
              if (m) done(m[1]!);
            });
            void exit.then((r) => fail(new Error(`catalog exited ${String(r.code)}: ${r.out}`)));
          });
          expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
          expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
        } finally {
          catalog.kill('SIGTERM');
        }
        expect((await exit).code).toBe(0);
      });
    });
  });
});

/** podman or docker, whichever answers (as `npm run images:build` picks); null when neither does. */
function engineAnswering(): string | null {
  for (const engine of ['podman', 'docker']) {
    const probe = spawnSync(engine, ['version', '--format', '{{.Client.Version}}'], { timeout: 20_000 });
    if (probe.status !== 0) continue;
    if (engine === 'docker' && spawnSync('docker', ['info'], { timeout: 20_000 }).status !== 0) continue;
    return engine;
  }
  return null;
}

const engine = engineAnswering();
const imageName = `localhost/generation-service:${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}`;
if (!engine) console.log('docker/Dockerfile: not built (neither podman nor docker answers)');

/**
 * The Dockerfile built, where an engine answers (`npm run images:build -- --only app`; on the Debian-made bases
 * when the engine holds them, as in CI, where the build before the tests leaves this one nothing to redo), and
 * the image itself checked: what its configuration says and what a container of it finds.
 */
(engine ? describe : describe.skip)('the image docker/Dockerfile builds', () => {
  const run = (...args: string[]) => spawnSync(engine!, ['run', '--rm', ...args], { encoding: 'utf8' });
  let config: {
    User: string;
    Entrypoint: string[];
    Env: string[];
    Healthcheck?: { Test: string[] };
    ExposedPorts: Record<string, unknown>;
  };

  beforeAll(() => {
    const debian = spawnSync(engine!, ['image', 'exists', 'localhost/node:24-bookworm-slim']).status === 0;
    const started = Date.now();
    execFileSync(
      process.execPath,
      [
        join(root, 'scripts', 'containers', 'images.mjs'),
        '--only',
        'app',
        ...(debian ? ['--bases', 'debian'] : []),
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const size = Number(
      execFileSync(engine!, ['image', 'inspect', imageName, '--format', '{{.Size}}'], { encoding: 'utf8' }),
    );
    console.log(
      `docker/Dockerfile: ${imageName} built in ${Date.now() - started} ms, ${(size / 1e6).toFixed(0)} MB`,
    );
    const inspect = (field: string): unknown =>
      JSON.parse(
        execFileSync(engine!, ['image', 'inspect', imageName, '--format', `{{json ${field}}}`], {
          encoding: 'utf8',
        }),
      );
    // Podman's `.Config` leaves the health check out; both engines answer `.Config.Healthcheck`.
    config = {
      ...(inspect('.Config') as typeof config),
      Healthcheck: inspect('.Config.Healthcheck') as { Test: string[] },
    };
  }, 900_000);

  it('runs as uid 10001 under tini and the entry script, with the /healthz check and the data directory', () => {
    expect(config.User).toBe('10001:10001');
    expect(config.Entrypoint).toEqual(['/usr/bin/tini', '--', '/usr/local/bin/gts-entrypoint']);
    expect(config.Healthcheck?.Test.join(' ')).toMatch(/node -e fetch\('http:\/\/127\.0\.0\.1:'.*\/healthz/);
    expect(config.Env).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'HOST=0.0.0.0', 'PORT=8080', 'DATA_DIR=/data']),
    );
    expect(Object.keys(config.ExposedPorts)).toEqual(['8080/tcp']);
    expect(run('--entrypoint', 'id', imageName, '-u').stdout.trim()).toBe('10001');
  });

  it('holds no npm and no sources: only the compiled apps, their production packages and the catalog', () => {
    const shell = (command: string) => run('--entrypoint', '/bin/sh', imageName, '-c', command);
    expect(shell('command -v npm npx || echo none').stdout.trim()).toBe('none');
    expect(
      shell(
        "find /app -name '*.ts' -not -name '*.d.ts' -not -path '*/node_modules/*' | head -3",
      ).stdout.trim(),
    ).toBe('');
    expect(shell('ls /app').stdout.trim().split('\n').sort()).toEqual([
      'dist',
      'libs',
      'node_modules',
      'package.json',
    ]);
    expect(shell('ls /app/libs').stdout.trim()).toBe('catalog');
    expect(shell('node --version').stdout.trim()).toMatch(/^v24\./);
  });

  it('refuses a missing or unknown app with exit 2, naming the apps it has', () => {
    const unknown = run(imageName, 'search');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("gts-entrypoint: unknown app 'search'");
    expect(unknown.stderr).toMatch(/gateway.*migrate/s);
  });
});

describe('docker/compose.yaml', () => {
  const apps = (): [string, ComposeService][] =>
    FLEET_APPS.map((app) => [app, compose.services[app]!] as [string, ComposeService]);

  it('runs every app of the fleet from the one image, in distributed mode, with the fleet replicas', () => {
    for (const [app, service] of apps()) {
      expect(service).toBeDefined();
      expect(service.command).toEqual([app]);
      expect(service.image).toBe(compose.services['migrate']!.image);
      expect(service.environment).toMatchObject({ MODE: 'distributed', HOST: '0.0.0.0', PORT: '8080' });
      // /metrics alone on its own port: the ingress's upstreams are the apps' 8080 (below), never this one.
      expect(service.environment?.['METRICS_PORT']).toBe('9464');
      expect(service.deploy?.replicas ?? 1).toBe(FLEET_REPLICAS[app as keyof typeof FLEET_REPLICAS] ?? 1);
      expect(service.depends_on?.['migrate']).toEqual({ condition: 'service_completed_successfully' });
      // Docker's SIGKILL comes after the drain.
      expect(Number.parseInt(service.stop_grace_period ?? '10s', 10) * 1000).toBeGreaterThan(
        Number(service.environment?.['SHUTDOWN_GRACE_MS'] ?? 10000),
      );
      // Service calls go to compose services that exist, on the port every app answers them on.
      const port = service.environment?.['SERVICE_CALL_PORT'];
      for (const entry of String(service.environment?.['SERVICE_ADDRESSES']).split(',')) {
        const [callee, address] = entry.split('=');
        expect(address).toBe(`${callee}:${port}`);
        expect(compose.services[callee!]).toBeDefined();
      }
    }
    expect(compose.services['migrate']).toMatchObject({ command: ['migrate'], restart: 'no' });
  });

  /** A service's image as compose resolves it with nothing set, and the variable that replaces it. */
  const imageOf = (service: string): { variable: string; fallback: string } => {
    const match = /^\$\{([A-Z0-9_]+):-([^}]+)\}$/.exec(compose.services[service]?.image ?? '');
    if (!match) throw new Error(`${service}: the image is not \${VARIABLE:-default}`);
    return { variable: match[1]!, fallback: match[2]! };
  };

  it('brings Kafka (KRaft), PostgreSQL, Redis and MinIO, each checked healthy before the apps start', () => {
    expect(imageOf('kafka')).toEqual({
      variable: 'KAFKA_IMAGE',
      fallback: expect.stringMatching(/^apache\/kafka:\d/),
    });
    expect(compose.services['kafka']?.environment?.['KAFKA_PROCESS_ROLES']).toBe('broker,controller');
    expect(imageOf('postgres')).toEqual({
      variable: 'POSTGRES_IMAGE',
      fallback: expect.stringMatching(/^postgres:\d/),
    });
    expect(imageOf('redis')).toEqual({
      variable: 'REDIS_IMAGE',
      fallback: expect.stringMatching(/^redis:\d/),
    });
    expect(imageOf('minio')).toEqual({
      variable: 'S3_IMAGE',
      fallback: expect.stringMatching(/^minio\/minio:RELEASE\./),
    });
    for (const name of ['kafka', 'postgres', 'redis', 'minio'])
      expect(compose.services[name]?.healthcheck?.test?.[0]).toBe('CMD');
    const env = compose.services['gateway']!.environment!;
    expect(env['KAFKA_BROKERS']).toBe('kafka:9092');
    expect(env['DATABASE_URL']).toMatch(/@postgres:5432\//);
    expect(env['REDIS_URL']).toBe('redis://redis:6379');
    expect(env['S3_ENDPOINT']).toBe('http://minio:9000');
  });

  describe('the ingress', () => {
    const ingress = compose.services['ingress']!;
    const mount = ingress.volumes?.find((v) => v.endsWith(':/etc/nginx/conf.d/default.conf:ro'));
    const conf = nginxConfig(readFileSync(join(root, 'docker', mount?.split(':')[0] ?? 'missing'), 'utf8'));
    const appOf = (upstream: string): string => conf.upstreams.get(upstream)!.replace(/:8080$/, '');

    it('is nginx on port 8080 (PORT) of every address (PUBLISH_ADDRESS), its upstreams compose services on the apps port', () => {
      expect(ingress.image).toMatch(/^\$\{INGRESS_IMAGE:-nginx:\d[^}]*\}$/);
      expect(ingress.ports).toEqual(['${PUBLISH_ADDRESS:-0.0.0.0}:${PORT:-8080}:80']);
      for (const [name, target] of conf.upstreams) {
        expect(target).toBe(`${name}:8080`);
        expect(FLEET_APPS).toContain(name);
      }
    });

    it('has exactly the rules of the fleet table: a Prefix as `= P` and `P/`, an Exact as `= P`', () => {
      const rules: { path: string; match: string; app: string }[] = [];
      for (const location of conf.locations) {
        if (location.path === '/') continue;
        if (location.exact) {
          const prefix = conf.locations.find((l) => !l.exact && l.path === `${location.path}/`);
          if (prefix) expect(prefix.upstream).toBe(location.upstream);
          rules.push({
            path: location.path,
            match: prefix ? 'prefix' : 'exact',
            app: appOf(location.upstream),
          });
        } else {
          // Every prefix location is the segment form of a Prefix rule.
          expect(location.path.endsWith('/')).toBe(true);
          expect(conf.locations).toContainEqual({
            ...location,
            exact: true,
            path: location.path.slice(0, -1),
          });
        }
      }
      const sort = (list: readonly { path: string; match: string; app: string }[]): string[] =>
        list.map((r) => `${r.path} ${r.match} ${r.app}`).sort();
      expect(sort(rules)).toEqual(sort(INGRESS_ROUTES));
      expect(conf.locations.filter((l) => l.path === '/')).toEqual([
        { exact: false, path: '/', upstream: INGRESS_DEFAULT_APP },
      ]);
    });

    it('sends every path where ingressAppOf does', () => {
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
      for (const path of samples)
        expect([path, appOf(nginxRoute(conf.locations, path)!)]).toEqual([path, ingressAppOf(path)]);
    });

    it("sends Google's methods under /v1/models/ to compat-protocols, and only the model list to the catalog", () => {
      const where = (path: string) => appOf(nginxRoute(conf.locations, path)!);
      for (const method of ['generateContent', 'streamGenerateContent'])
        expect(where(`/v1/models/local/echo/chat:${method}`)).toBe('compat-protocols');
      expect(where('/v1/models')).toBe('catalog');
    });
  });
});
