import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const services = require('./services') as {
  REQUIRED: string[];
  LOCAL_IMAGES: Record<string, string>;
  pathFile: string;
  dockerHinted(env: Record<string, string | undefined>): boolean;
  resolveServices(
    env: Record<string, string | undefined>,
    file?: string,
  ): Promise<{ path: string; stop(): Promise<unknown> }>;
};

describe('where the e2e services come from (one configuration, every path)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gts-e2e-services-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says which path this run took, and the settings it put in the environment answer to it', () => {
    const path = readFileSync(services.pathFile, 'utf8').trim();
    expect(path).toMatch(/^(environment|testcontainers|scripts\/services) \(/);
    for (const name of services.REQUIRED) expect(process.env[name]).toBeTruthy();
    expect(process.env['TEST_DATABASE_URL']).toBe(process.env['DATABASE_URL']);
    expect(process.env['TEST_REDIS_URL']).toBe(process.env['REDIS_URL']);
  });

  const path = readFileSync(services.pathFile, 'utf8').trim();
  (path.startsWith('testcontainers') ? it : it.skip)(
    'on testcontainers, runs the images images:build made where the engine holds them (CI: always)',
    () => {
      if (process.env['CONTAINERS'] !== 'required') return;
      for (const image of Object.values(services.LOCAL_IMAGES)) expect(path).toContain(image);
    },
  );

  it('uses services the environment names without starting anything', async () => {
    const env: Record<string, string | undefined> = {
      DATABASE_URL: 'postgresql://db.internal/test',
      REDIS_URL: 'redis://cache.internal:6379',
      KAFKA_BROKERS: 'kafka.internal:9092',
      S3_ENDPOINT: 'http://s3.internal:9000',
    };
    const { path } = await services.resolveServices(env, join(dir, 'absent.env'));
    expect(path).toMatch(/^environment \(/);
    expect(env['TEST_DATABASE_URL']).toBe('postgresql://db.internal/test');
    expect(env['TEST_REDIS_URL']).toBe('redis://cache.internal:6379');
  });

  const noDocker = { HOME: join(tmpdir(), 'gts-no-home'), PATH: '' };
  const runsWithoutDocker = services.dockerHinted(noDocker) ? it.skip : it;

  runsWithoutDocker('without a Docker engine, takes the settings of `npm run services:up`', async () => {
    const file = join(dir, 'services.env');
    writeFileSync(
      file,
      'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test\nREDIS_URL=redis://127.0.0.1:6379\n' +
        'KAFKA_BROKERS=127.0.0.1:19092\nS3_ENDPOINT=http://127.0.0.1:19000\nS3_FORCE_PATH_STYLE=true\n',
    );
    const env: Record<string, string | undefined> = { ...noDocker, REDIS_URL: 'redis://mine:6379' };
    const { path } = await services.resolveServices(env, file);
    expect(path).toMatch(/^scripts\/services \(no Docker engine reachable/);
    expect(env).toMatchObject({
      KAFKA_BROKERS: '127.0.0.1:19092',
      S3_FORCE_PATH_STYLE: 'true',
      // What the environment sets wins over the file.
      REDIS_URL: 'redis://mine:6379',
      TEST_REDIS_URL: 'redis://mine:6379',
    });
  });

  runsWithoutDocker(
    'asked for containers (E2E_SERVICES=containers) without an engine, refuses to fall back',
    async () => {
      const file = join(dir, 'fallback.env');
      writeFileSync(file, 'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test\n');
      await expect(
        services.resolveServices({ ...noDocker, E2E_SERVICES: 'containers' }, file),
      ).rejects.toThrow('E2E_SERVICES=containers but no container engine answers');
    },
  );

  runsWithoutDocker('without a Docker engine or the scripts, says how to start the services', async () => {
    await expect(services.resolveServices({ ...noDocker }, join(dir, 'absent.env'))).rejects.toThrow(
      'e2e: no services. Start them with `npm run services:up` (or make a Docker engine reachable).',
    );
  });
});
