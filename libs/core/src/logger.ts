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
