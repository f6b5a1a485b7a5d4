import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, createLogger, loadConfig, type AppConfig, type Logger } from '@gen/core';
import { SERVICE_CALL, TcpServiceCall, connectServiceCallServer } from '@gen/transport';
import { requireDistributedSettings, waitForDependencies, type Dependency } from './dependencies';
import { startTracing, tracesUrlOf } from '@gen/observability';
import { baseUrlOf, createHttpApp, drainOnSignals } from './http-app';
import {
  ServicePortsModule,
  requireServiceAddresses,
  serviceCallAddress,
  type ServicePorts,
} from './service-ports';

export interface ServiceDefinition {
  /** The app's name in logs, e.g. `gateway`. */
  readonly name: string;
  readonly rootModule: (config: AppConfig, logger: Logger) => DynamicModule;
  /** What the app needs outside itself in distributed mode: required settings, checked before start. */
  readonly needs: readonly Dependency[];
  /**
   * The ports this app answers for other apps and the ones it calls (a service app of the fleet; the embedded
   * app composes every domain and has none). An app that answers listens for service calls before it listens
   * for HTTP; one that calls needs `SERVICE_ADDRESSES`.
   */
  readonly ports?: ServicePorts;
  /** Runs once the app listens, e.g. the first-start bootstrap; returns lines to print. */
  readonly afterListen?: (app: NestFastifyApplication, baseUrl: string) => Promise<string[]>;
}

/** The app's root module, with its service ports when it has any. */
function rootModuleOf(definition: ServiceDefinition, config: AppConfig, logger: Logger): DynamicModule {
  const root = definition.rootModule(config, logger);
  const ports = definition.ports;
  if (!ports) return root;
  return { module: ServiceAppModule, imports: [root, ServicePortsModule.forRoot(config, logger, ports)] };
}

@Module({})
class ServiceAppModule {}

const hostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The `main` of every app: validate configuration (exit 2 naming the bad setting), start tracing when an OTLP
 * endpoint is set, wait for the dependencies of distributed mode (exit 1 naming the one that did not answer),
 * build the app, listen, print the base URL, drain on SIGTERM (sending the last spans).
 */
export function runService(definition: ServiceDefinition): void {
  let config: AppConfig;
  try {
    config = loadConfig();
    requireDistributedSettings(config, definition.needs);
    if (definition.ports) requireServiceAddresses(config, definition.ports);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL).child({ app: definition.name });
  // Before anything else runs, so that every span of the process has its context manager.
  const tracesUrl = tracesUrlOf(config);
  if (
    startTracing({
      serviceName: config.OTEL_SERVICE_NAME ?? definition.name,
      tracesUrl,
      scheduledDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
    })
  )
    logger.info({ tracesUrl }, 'tracing: spans exported over OTLP/HTTP (JSON)');
  const start = async (): Promise<void> => {
    await waitForDependencies(config, definition.needs, logger);
    const app = await createHttpApp(rootModuleOf(definition, config, logger), config, logger);
    // Other apps' calls are answered before this app takes requests (which may call them back).
    const answering = (definition.ports?.answers.length ?? 0) > 0;
    const calls = answering ? await connectServiceCallServer(app, serviceCallAddress(config)) : undefined;
    await app.listen({ port: config.PORT, host: config.HOST });
    const baseUrl = baseUrlOf(app, config);
    drainOnSignals(app, config, logger);
    const extra = definition.afterListen ? await definition.afterListen(app, baseUrl) : [];
    // Started: from now on a peer that cannot be reached fails a call at once (503) instead of being waited for.
    if (definition.ports) app.get<TcpServiceCall>(SERVICE_CALL).started();
    process.stdout.write(
      `${[
        `${definition.name} (${config.MODE} mode) listening on ${baseUrl}`,
        ...(calls ? [`service calls on tcp://${hostPort(calls.host, calls.port)}`] : []),
        ...extra,
      ].join('\n')}\n`,
    );
  };
  start().catch((error: unknown) => {
    logger.fatal({ err: error }, 'start-up failed');
    process.stderr.write(
      `${definition.name}: start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
