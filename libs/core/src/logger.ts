import pino, { type Logger } from 'pino';

/** Header and body fields that may carry a credential; their values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-gen-api-key"]',
  'req.headers["x-goog-api-key"]',
  'req.headers.cookie',
  'apiKey',
  'adminToken',
  'token',
  'secret',
  '*.apiKey',
  '*.adminToken',
  '*.token',
  '*.secret',
];

/** Structured JSON logs. Request-scoped lines carry `request_id` (set by the edge). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'generation-task-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The URL without its query values, so that a secret pasted into a query string is never logged. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .map((pair) => pair.split('=')[0])
    .filter(Boolean);
  return `${url.slice(0, q)}?${names.map((n) => `${n}=[redacted]`).join('&')}`;
}

export type { Logger };

/**
 * The one injection token of the process's {@link Logger}. `PlatformModule` provides it globally; every library
 * injects it from here, so no domain library needs the platform wiring to log.
 */
export const LOGGER = Symbol('Logger');

/**
 * A request's logger that becomes a real pino child (with the request id bound) only when something logs
 * through it. Most requests never do (the access line goes through the root logger with `request_id`), so
 * the hot path does not build a child logger per request.
 */
class LazyChildLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options?: pino.ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.logger.level = value;
  }
  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('fatal')) (this.logger.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('error')) (this.logger.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('warn')) (this.logger.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('info')) (this.logger.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('debug')) (this.logger.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]): void {
    if (this.parent.isLevelEnabled('trace')) (this.logger.trace as (...a: unknown[]) => void)(...args);
  }
  silent(): void {}
}

export function lazyChildLogger(
  parent: Logger,
  bindings: pino.Bindings,
  options?: pino.ChildLoggerOptions,
): Logger {
  return new LazyChildLogger(parent, bindings, options) as unknown as Logger;
}
