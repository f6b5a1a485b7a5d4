import type { ChildProcess } from 'node:child_process';

/** `--name N` from the command line, or `fallback`. */
export function numberFlag(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** True when `--name` is on the command line. */
export function hasFlag(name: string): boolean {
  return process.argv.slice(2).includes(`--${name}`);
}

export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A server process's CPU time so far (user + system), in microseconds: the server answers any IPC message
 * with its `process.cpuUsage()` (see bench/edge `--serve`).
 */
export function serverCpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system));
    child.send('cpu');
  });
}
