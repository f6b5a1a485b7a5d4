import { promises as dns } from 'node:dns';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to every address it has. Injected in tests; the system resolver by default. */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** `dns.promises.lookup(host, { all: true, verbatim: true })`: what `http.request` itself would use. */
export const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** Default bound on one resolution; getaddrinfo has no timeout of its own. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5000;

/** Resolves with `resolver`, rejecting with an `ETIMEOUT` error after `timeoutMs`. */
export async function resolveWithin(
  resolver: HostResolver,
  host: string,
  timeoutMs: number,
): Promise<readonly ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(Object.assign(new Error(`lookup of ${host} timed out`), { code: 'ETIMEOUT' }));
    }, timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([resolver(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
