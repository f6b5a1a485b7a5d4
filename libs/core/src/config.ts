import { existsSync, readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { createAjv } from './validation';
import { USD_AMOUNT_PATTERN } from './money-schema';

/**
 * Every setting the service reads from the environment, validated once at boot. `x-secret` marks values
 * that are never logged. README's configuration table documents the same list.
 */
export const ConfigSchema = Type.Object(
  {
    MODE: Type.Union([Type.Literal('embedded'), Type.Literal('distributed')], {
      default: 'embedded',
      description: 'embedded: every service in one process; distributed: one app per process.',
    }),
    HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on.' }),
    PORT: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: 8080,
      description: 'Port to listen on (0 picks a free one).',
    }),
    METRICS_PORT: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 65535,
        description:
          'Serve GET /metrics (Prometheus) on this port of HOST alone, and not on PORT; unset: on PORT, beside /healthz.',
      }),
    ),
    OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
      Type.String({
        pattern: '^https?://\\S+$',
        description:
          'OpenTelemetry: base URL of an OTLP/HTTP receiver (spans go to <base>/v1/traces); unset, with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset too, means no tracing at all.',
      }),
    ),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(
      Type.String({
        pattern: '^https?://\\S+$',
        description:
          'OpenTelemetry: the exact OTLP/HTTP traces URL, instead of <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces.',
      }),
    ),
    OTEL_EXPORTER_OTLP_PROTOCOL: Type.Optional(
      Type.Literal('http/json', {
        description:
          'OpenTelemetry: the OTLP transport; only http/json (protobuf-encoded and gRPC exports are not built in).',
      }),
    ),
    OTEL_SERVICE_NAME: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "OpenTelemetry: service.name of this process's spans; default the app's name (gateway, tasks, ...).",
      }),
    ),
    OTEL_BSP_SCHEDULE_DELAY: Type.Integer({
      minimum: 10,
      maximum: 600000,
      default: 5000,
      description: 'OpenTelemetry: how long finished spans wait to be exported in one batch, milliseconds.',
    }),
    DATA_DIR: Type.String({
      minLength: 1,
      default: './data',
      description: 'Embedded database and bootstrap.json.',
    }),
    DATABASE_URL: Type.Optional(
      Type.String({
        pattern: '^postgres(ql)?://',
        'x-secret': true,
        description: 'PostgreSQL URL; without it PGlite in DATA_DIR is used.',
      }),
    ),
    PUBLIC_BASE_URL: Type.Optional(
      Type.String({ format: 'uri', description: 'Base URL printed and written to bootstrap.json.' }),
    ),
    ADMIN_TOKEN: Type.Optional(
      Type.String({
        minLength: 24,
        'x-secret': true,
        description: 'Admin API token; generated on first start when unset.',
      }),
    ),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info', description: 'Log level of the JSON logs.' },
    ),
    BODY_LIMIT_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 104857600,
      default: 1048576,
      description: 'Largest accepted JSON body (413 above).',
    }),
    DEFAULT_KEY_DAILY_CAP: Type.String({
      pattern: USD_AMOUNT_PATTERN,
      default: '10',
      description: 'Daily spend cap of a new API key, USD.',
    }),
    KEY_CACHE_TTL_MS: Type.Integer({
      minimum: 0,
      maximum: 1000,
      default: 1000,
      description: 'How long a verified key is trusted before it is read again; bounds revocation delay.',
    }),
    RATE_LIMIT_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: 600,
      description: 'Requests per minute per API key (token bucket refill).',
    }),
    RATE_LIMIT_BURST: Type.Integer({
      minimum: 1,
      default: 120,
      description: 'Token bucket size per API key.',
    }),
    ADMIN_RATE_BURST: Type.Integer({
      minimum: 1,
      default: 120,
      description:
        'Admin API (/admin/v1): token bucket size per source address (429 with Retry-After when empty).',
    }),
    ADMIN_RATE_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: 300,
      description: 'Admin API (/admin/v1): requests per minute per source address (token bucket refill).',
    }),
    ADMIN_AUTH_FAIL_BURST: Type.Integer({
      minimum: 1,
      default: 10,
      description:
        'Admin API: failed admin-token attempts (401) a source address may make at once; then every admin request of that address is 429 until one refills, before any token is checked.',
    }),
    ADMIN_AUTH_FAIL_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: 10,
      description: 'Admin API: failed admin-token attempts per minute per source address (refill).',
    }),
    CONSOLE_RATE_BURST: Type.Integer({
      minimum: 1,
      default: 120,
      description:
        'Console API (/console/v1, but the public catalog and sign-in, which have their own limits): token bucket size per source address.',
    }),
    CONSOLE_RATE_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: 300,
      description: 'Console API: requests per minute per source address (token bucket refill).',
    }),
    CONSOLE_WRITE_BURST: Type.Integer({
      minimum: 1,
      default: 30,
      description:
        'Console API: POST, PUT, PATCH and DELETE calls one console session may make at once (creating keys, rotating secrets, redeliveries).',
    }),
    CONSOLE_WRITE_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: 30,
      description: 'Console API: POST, PUT, PATCH and DELETE calls per minute per console session (refill).',
    }),
    CATALOG_FILE: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'The model catalog file operators edit; unset means the shipped libs/catalog/catalog/models.json.',
      }),
    ),
    KAFKA_BROKERS: Type.Optional(
      Type.String({
        pattern: '^[^,\\s:]+:\\d{1,5}(,[^,\\s:]+:\\d{1,5})*$',
        description: 'Distributed mode: Kafka bootstrap brokers, `host:port[,host:port...]`.',
      }),
    ),
    KAFKA_TOPIC_PREFIX: Type.String({
      pattern: '^[A-Za-z0-9._-]{0,100}$',
      default: '',
      description:
        'Distributed mode: prefix of every Kafka topic and consumer group this process uses, so that two fleets (or a fleet and its tests) can share one broker.',
    }),
    REDIS_URL: Type.Optional(
      Type.String({
        pattern: '^rediss?://',
        'x-secret': true,
        description: 'Distributed mode: Redis for rate limits, the key cache and quote nonces.',
      }),
    ),
    REDIS_KEY_PREFIX: Type.String({
      pattern: '^[A-Za-z0-9._:-]{0,100}$',
      default: '',
      description:
        'Distributed mode: prefix of every Redis key (rate-limit buckets, cache), so that two fleets (or a fleet and its tests) can share one Redis.',
    }),
    S3_ENDPOINT: Type.Optional(
      Type.String({
        format: 'uri',
        description: 'Distributed mode: an S3-compatible endpoint; unset means AWS S3 of S3_REGION.',
      }),
    ),
    S3_PUBLIC_ENDPOINT: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        description:
          'Distributed mode: the S3 endpoint that presigned upload and download URLs name, when clients reach the store at another address than the apps (compose: http://127.0.0.1:9000); unset means S3_ENDPOINT.',
      }),
    ),
    S3_REGION: Type.String({ minLength: 1, default: 'us-east-1', description: 'S3 region.' }),
    S3_BUCKET: Type.String({
      pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
      default: 'generation-media',
      description: 'Distributed mode: the bucket of uploads and outputs (created when missing).',
    }),
    S3_KEY_PREFIX: Type.String({
      pattern: '^([A-Za-z0-9._-][A-Za-z0-9._/-]{0,199})?$',
      default: '',
      description:
        'Distributed mode: prefix of every object key written, read or presigned (e.g. `fleet-a/`), so that two fleets (or a fleet and its tests) can share one bucket.',
    }),
    S3_ACCESS_KEY_ID: Type.Optional(
      Type.String({ minLength: 1, description: 'S3 access key id; unset uses the default AWS chain.' }),
    ),
    S3_SECRET_ACCESS_KEY: Type.Optional(
      Type.String({ minLength: 1, 'x-secret': true, description: 'S3 secret access key.' }),
    ),
    S3_FORCE_PATH_STYLE: Type.Boolean({
      default: false,
      description: 'Path-style S3 URLs (S3Proxy, MinIO and most S3-compatible servers need true).',
    }),
    DEPENDENCY_TIMEOUT_MS: Type.Integer({
      minimum: 100,
      maximum: 300000,
      default: 15000,
      description: 'How long start-up waits for each dependency before it exits with a clear message.',
    }),
    SERVICE_CALL_PORT: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: 4000,
      description:
        "Distributed mode: TCP port of this app's service-call listener, for the apps that answer other apps' calls (gateway, billing, media); 0 picks a free one.",
    }),
    SERVICE_CALL_HOST: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Distributed mode: address the service-call listener binds; HOST when unset.',
      }),
    ),
    SERVICE_ADDRESSES: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z-]*=[^,\\s=]+:\\d{1,5}(,[a-z][a-z-]*=[^,\\s=]+:\\d{1,5})*$',
        description:
          'Distributed mode: where the apps this one calls listen for service calls, `app=host:port[,app=host:port...]`; an app named several times (replicas) is called in turn. Required by an app that calls another.',
      }),
    ),
    TRUSTED_PROXIES: Type.Optional(
      Type.String({
        description:
          'Comma-separated addresses or CIDRs of the reverse proxies in front of this app (its ingress). A request from one of them has its client address taken from X-Forwarded-For, through every listed proxy, for the per-address rate limits (public catalog, console sign-in, admin and console routes), and its scheme and host from X-Forwarded-Proto and X-Forwarded-Host (the console sign-in link, the Secure cookie); unset, or from anyone else, those headers are ignored: the peer address is the client, the connection gives the scheme and the Host header the host.',
      }),
    ),
    WEBHOOK_ALLOW_PRIVATE_CIDRS: Type.Optional(
      Type.String({
        description:
          'Comma-separated CIDRs that callback URLs may resolve to despite the public-address rule (on-premise receivers, tests).',
      }),
    ),
    TEXT_KEEPALIVE_MS: Type.Integer({
      minimum: 100,
      maximum: 600000,
      default: 30000,
      description:
        'How long a non-streamed compatibility answer may run before its response is held open with whitespace and X-Service-Keepalive: 1 (spec: about 30 seconds).',
    }),
    TEXT_STREAM_KEEPALIVE_MS: Type.Integer({
      minimum: 50,
      maximum: 600000,
      default: 10000,
      description:
        'How long a text stream may stay silent (the model thinking) before a `: keep-alive` comment line (whitespace in a JSON-array stream and in a held non-streamed answer); a model silent that long before its first event opens the stream, so a failure after that is an error inside it.',
    }),
    PROVIDER_ALLOW_PRIVATE_CIDRS: Type.Optional(
      Type.String({
        description:
          "Comma-separated CIDRs that output URLs returned by an upstream may resolve to despite the public-address rule (outputs on the upstream's own configured origin are always fetched).",
      }),
    ),
    FETCH_ALLOW_PRIVATE_CIDRS: Type.Optional(
      Type.String({
        description:
          'Comma-separated CIDRs that user-given URLs fetched by the service (file imports) may resolve to despite the public-address rule (on-premise sources, tests); https and port 443 are still required.',
      }),
    ),
    FETCH_CA_FILE: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'PEM file of CA certificates trusted for fetches of user-given URLs (file imports) in addition to the bundled public CAs (on-premise sources, tests).',
      }),
    ),
    FETCH_DEADLINE_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 120,
      description:
        'How long one fetch of a user-given URL (a file import, a media URL in task input) may take in all, from the first connection through every redirect to the last byte; a source still sending then is cut off (an import answers 400).',
    }),
    IMPORT_CONCURRENCY_PER_KEY: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 4,
      description:
        'File imports one API key may have in progress at once, across every process of a fleet; one more is refused with 429 and Retry-After, nothing fetched.',
    }),
    WEBHOOK_RETRY_SCHEDULE: Type.String({
      pattern: '^\\d{1,6}(,\\d{1,6}){0,19}$',
      default: '10,30,120,600,1800,7200,21600',
      description:
        'Seconds between attempts of callback deliveries and endpoint messages (after the first); one more attempt than entries.',
    }),
    WEBHOOK_CA_FILE: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'PEM file of CA certificates trusted for webhook deliveries in addition to the bundled public CAs (on-premise receivers, tests).',
      }),
    ),
    WEBHOOK_PAYLOAD_VERSION: Type.Union([Type.Literal('1'), Type.Literal('2')], {
      default: '2',
      description: 'Body version of task callbacks (platform switch), fixed when a delivery is queued.',
    }),
    TASK_DEADLINE_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86400,
      default: 1800,
      description: 'How long a task may stay queued or running before it expires (deadlineAt).',
    }),
    QUOTE_SIGNING_KEY: Type.Optional(
      Type.String({
        minLength: 32,
        'x-secret': true,
        description:
          'Key that signs quotes (the same in every process); unset: made once in DATA_DIR/quote.key.',
      }),
    ),
    RUNNER_CONCURRENCY: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 8,
      description:
        'Tasks one runner process executes at once per model; more wait, unclaimed, in the runner queue (runner.jobs) for any runner.',
    }),
    RUNNER_LEASE_MS: Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      default: 10_000,
      description:
        'How long a runner holds a task it claimed without renewing (renewed every third of it while the task runs): after a runner dies, its tasks are run again by another runner (or itself restarted) within this time.',
    }),
    TEXT_STREAM_LEASE_MS: Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      default: 10_000,
      description:
        'How long the process streaming a text answer holds its task without renewing (renewed every third of it while it streams): after that process dies, its answers fail (service_interrupted, hold released) and their Idempotency-Keys may be used again within this time. The same in every process.',
    }),
    SHUTDOWN_GRACE_MS: Type.Integer({
      minimum: 0,
      default: 10000,
      description:
        'How long SIGTERM waits for in-flight requests; open text answers are finished and reported first, and cut (charged by their usage so far) near its end.',
    }),
  },
  { additionalProperties: true },
);
export type AppConfig = Static<typeof ConfigSchema>;
export const APP_CONFIG = Symbol('AppConfig');

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${setting} ${detail}`);
    this.name = 'ConfigError';
  }
}

const ajv = createAjv({ coerceTypes: true, useDefaults: true });
const validate = ajv.compile(ConfigSchema);

/** Reads and validates the settings; throws ConfigError naming the first bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const names = Object.keys(ConfigSchema.properties);
  const input: Record<string, unknown> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    // Integers are written as plain digits: no hex, exponents, fractions or padding slip through coercion.
    if (
      (schema as { type?: string }).type === 'integer' &&
      typeof input[name] === 'string' &&
      !/^\d+$/.test(input[name] as string)
    ) {
      throw new ConfigError(
        name,
        `must be a whole number written in digits (got ${JSON.stringify(input[name])})`,
      );
    }
  }
  if (!validate(input)) {
    const error = validate.errors?.[0];
    const setting = error?.instancePath.replace(/^\//, '') || 'configuration';
    const shown = ConfigSchema.properties[setting as keyof typeof ConfigSchema.properties]?.['x-secret']
      ? '(secret)'
      : JSON.stringify(env[setting]);
    throw new ConfigError(setting, `${error?.message ?? 'is invalid'} (got ${shown})`);
  }
  return input as AppConfig;
}

/** The settings with secrets masked, for a start-up log line. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const value = (config as Record<string, unknown>)[name];
    if (value !== undefined) out[name] = (schema as { 'x-secret'?: boolean })['x-secret'] ? '***' : value;
  }
  return out;
}

/**
 * The settings of a `NAME=value` file such as the `.env.services` that `npm run services:up` writes (one per
 * line, no quoting); empty when the file does not exist.
 */
export function readSettingsFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const settings: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) settings[match[1]!] = match[2]!;
  }
  return settings;
}
