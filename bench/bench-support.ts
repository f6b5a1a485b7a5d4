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

/**
 * Gives a service's demo account `credit` and makes it an API key with a daily cap of as much, through the admin
 * API (what a bench needs before its load); resolves with the key.
 */
export async function fundedKey(
  url: string,
  boot: { readonly accountId: string; readonly adminToken: string },
  credit: string,
): Promise<string> {
  const post = async (path: string, body: unknown): Promise<Record<string, string>> => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${boot.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  await post(`/admin/v1/accounts/${boot.accountId}/credits`, { amount: credit });
  return (await post(`/admin/v1/accounts/${boot.accountId}/keys`, { dailyCap: credit }))['apiKey']!;
}
