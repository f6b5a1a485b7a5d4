import type { ObjectStorage } from '@gen/storage';

/** The methods of a port: every property that is a function returning a promise. */
export type PortMethodName<T> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [K in keyof T]-?: T[K] extends (...args: any[]) => Promise<unknown> ? K : never;
}[keyof T] &
  string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (...args: any[]) => Promise<unknown>;
type ArgsOf<F> = F extends Fn ? Parameters<F> : never;
type ResultOf<F> = F extends Fn ? Awaited<ReturnType<F>> : never;

/** What a codec may use besides the value: where bytes too large for a call travel (see media inputs). */
export interface PortIo {
  readonly objects?: ObjectStorage;
}

/**
 * How one method of a port crosses the service transport. Without codecs, arguments travel as a JSON array
 * and the result as it is: both must be JSON-safe (see `ServiceCall`). A codec turns what JSON would lose
 * (bigint money, a Date, bytes) into what it keeps, and back, on both sides; the caller encodes arguments and
 * decodes results, the callee the other way round.
 */
export interface PortMethodWire<A extends unknown[], R> {
  /** How long the caller waits (the transport's default, 5 s, otherwise). */
  readonly timeoutMs?: number;
  readonly encodeArgs?: (args: A, io: PortIo) => unknown[] | Promise<unknown[]>;
  /** `signal` aborts when the caller has stopped waiting (the method's timeout). */
  readonly decodeArgs?: (wire: unknown[], signal: AbortSignal) => A;
  readonly encodeResult?: (result: R, io: PortIo) => unknown;
  readonly decodeResult?: (wire: unknown, io: PortIo) => R | Promise<R>;
  /**
   * A failure of the port's own that is not a `DomainError` (those cross by themselves), as data; undefined
   * for any other failure, which crosses as a bare 500.
   */
  readonly encodeFailure?: (error: unknown) => unknown;
  readonly decodeFailure?: (wire: unknown) => Error;
  /** The caller's signal among the arguments: the caller stops waiting when it aborts (it cannot travel). */
  readonly signalOf?: (args: A) => AbortSignal | undefined;
}

export type PortMethods<T> = {
  readonly [K in PortMethodName<T>]: PortMethodWire<ArgsOf<T[K]>, ResultOf<T[K]>>;
};

/**
 * A port of `@gen/contracts` as it crosses the service transport: which service answers it, under which
 * name, and how each method travels. Each method is one pattern, `<port>.<method>` (`holds.reserve`).
 */
export interface PortContract<T> {
  /** The port's token in `@gen/contracts`, e.g. HOLDS_PORT. */
  readonly token: symbol;
  /** The service that answers it (the domain: `accounts`, `billing`, `media`). */
  readonly service: string;
  /** The port's name in patterns: `holds` for `holds.reserve`. */
  readonly port: string;
  readonly methods: PortMethods<T>;
}

/** Declares a port contract; the type parameter makes the method list complete and each codec typed. */
export function portContract<T>(contract: PortContract<T>): PortContract<T> {
  return contract;
}

/** The pattern of one method. */
export const patternOf = (contract: PortContract<unknown>, method: string): string =>
  `${contract.port}.${method}`;

/** The reply of a port method on the wire: its (encoded) result, or a failure of the port's own. */
export type PortReply = { readonly result?: unknown } | { readonly failure: unknown };

/** A contract's methods with their wire descriptions, for the loops of both sides. */
export function methodsOf<T>(contract: PortContract<T>): [string, PortMethodWire<unknown[], unknown>][] {
  return Object.entries(contract.methods) as [string, PortMethodWire<unknown[], unknown>][];
}
