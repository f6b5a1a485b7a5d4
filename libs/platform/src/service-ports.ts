import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { ForwardedRoutesInstaller, forwardAnswerProviders } from './forwarded-routes';
import { FLEET_APPS, type FleetApp } from '@gen/contracts';
import { ConfigError, type AppConfig, type Logger } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import {
  SERVICE_CALL,
  ServiceCallModule,
  ServiceHandlers,
  answerPort,
  ownerOf,
  remotePort,
  type PortContract,
  type ServiceAddress,
  type ServiceCall,
} from '@gen/transport';

/**
 * The ports an app of the fleet offers other apps and the ones it uses from them, over the service transport
 * (docs/architecture.md, "Service calls"). `answers`: ports of the app's own domain, implemented by the
 * modules it composes. `calls`: ports of other domains, used through remote adapters in place of their modules.
 */
export interface ServicePorts {
  // The contracts are of different port types; each is only ever paired with its own token.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly answers: readonly PortContract<any>[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly calls: readonly PortContract<any>[];
}

const KNOWN_APPS: readonly string[] = FLEET_APPS;

/** `SERVICE_ADDRESSES` read: each app's addresses in the order given (replicas are called in turn). */
export function parseServiceAddresses(raw: string | undefined): Map<FleetApp, ServiceAddress[]> {
  const byApp = new Map<FleetApp, ServiceAddress[]>();
  if (raw === undefined) return byApp;
  for (const entry of raw.split(',')) {
    const [app = '', address = ''] = entry.split('=');
    if (!KNOWN_APPS.includes(app)) {
      throw new ConfigError(
        'SERVICE_ADDRESSES',
        `names ${JSON.stringify(app)}, which is not an app of the fleet (${FLEET_APPS.join(', ')})`,
      );
    }
    const colon = address.lastIndexOf(':');
    const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const port = Number(address.slice(colon + 1));
    if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ConfigError('SERVICE_ADDRESSES', `has a bad address for ${app}: ${JSON.stringify(address)}`);
    }
    const list = byApp.get(app as FleetApp) ?? [];
    list.push({ host, port });
    byApp.set(app as FleetApp, list);
  }
  return byApp;
}

/** The apps whose ports `ports` calls, each with the services it answers for this app. */
function calledApps(ports: ServicePorts): Map<FleetApp, string[]> {
  const apps = new Map<FleetApp, string[]>();
  for (const contract of ports.calls) {
    const app = ownerOf(contract.service);
    if (!app) throw new Error(`no app answers the ${contract.service} service`);
    const names = apps.get(app) ?? [];
    names.push(`${contract.service}.${contract.port}`);
    apps.set(app, names);
  }
  return apps;
}

/**
 * Refuses to start an app that calls other apps without their addresses (exit 2, like any bad setting),
 * naming the setting and what the app calls of each app that is missing.
 */
export function requireServiceAddresses(config: AppConfig, ports: ServicePorts): void {
  const needed = calledApps(ports);
  if (needed.size === 0) return;
  const listed = (ports: string[]) => ports.join(', ');
  if (config.SERVICE_ADDRESSES === undefined) {
    const what = [...needed].map(([app, called]) => `${app} (${listed(called)})`).join('; ');
    throw new ConfigError('SERVICE_ADDRESSES', `is required: this app calls ${what}`);
  }
  const addresses = parseServiceAddresses(config.SERVICE_ADDRESSES);
  for (const [app, called] of needed) {
    if (!addresses.has(app)) {
      throw new ConfigError(
        'SERVICE_ADDRESSES',
        `names no address of ${app}, which this app calls (${listed(called)})`,
      );
    }
  }
}

/** The transport's address book: each called service at the addresses of the app that answers it. */
export function serviceAddressesFor(
  config: AppConfig,
  ports: ServicePorts,
): Record<string, ServiceAddress[]> {
  const addresses = parseServiceAddresses(config.SERVICE_ADDRESSES);
  const services: Record<string, ServiceAddress[]> = {};
  for (const contract of ports.calls) {
    const app = ownerOf(contract.service);
    const list = app ? addresses.get(app) : undefined;
    if (list) services[contract.service] = list;
  }
  return services;
}

/** Where this app's service-call listener binds: SERVICE_CALL_HOST (or HOST) and SERVICE_CALL_PORT. */
export function serviceCallAddress(config: AppConfig): ServiceAddress {
  return { host: config.SERVICE_CALL_HOST ?? config.HOST, port: config.SERVICE_CALL_PORT };
}

const SERVICE_PORTS = Symbol('ServicePorts');

/**
 * Registers the handlers of the ports this app answers, once every module is built: each port's implementation
 * is the provider of its token in whichever module of the app provides it (its own domain's module).
 */
@Injectable()
class PortAnswers implements OnModuleInit {
  constructor(
    private readonly handlers: ServiceHandlers,
    private readonly modules: ModuleRef,
    @Inject(OBJECT_STORAGE) private readonly objects: ObjectStorage,
    @Inject(SERVICE_PORTS) private readonly ports: ServicePorts,
  ) {}

  onModuleInit(): void {
    for (const contract of this.ports.answers) {
      let impl: unknown;
      try {
        impl = this.modules.get(contract.token, { strict: false });
      } catch {
        throw new Error(
          `this app answers ${contract.service}.${contract.port} but composes no module that provides it`,
        );
      }
      answerPort(this.handlers, contract, impl, { objects: this.objects });
    }
  }
}

/**
 * Puts an app's service ports in place: the transport (TCP), a remote adapter under the token of each port it
 * calls (so the domain modules it composes inject them as they would the in-process ports), and the handlers
 * of the ports it answers, registered from the providers of its own domain modules. The listener is attached
 * by `runService` (`connectServiceCallServer`).
 */
@Module({})
export class ServicePortsModule {
  static forRoot(config: AppConfig, logger: Logger, ports: ServicePorts): DynamicModule {
    const remote: Provider[] = ports.calls.map((contract) => ({
      provide: contract.token,
      inject: [SERVICE_CALL, OBJECT_STORAGE],
      useFactory: (call: ServiceCall, objects: ObjectStorage) =>
        remotePort(call, contract, { io: { objects } }),
    }));
    return {
      module: ServicePortsModule,
      global: true,
      imports: [
        ServiceCallModule.distributed({
          services: serviceAddressesFor(config, ports),
          startupRetryMs: config.DEPENDENCY_TIMEOUT_MS,
          reportUnexpected: (error, call) =>
            logger.error({ err: error, ...call }, 'a service call this app answers failed unexpectedly'),
        }),
      ],
      providers: [
        ...remote,
        ...forwardAnswerProviders(ports.answers),
        {
          provide: ForwardedRoutesInstaller,
          inject: [HttpAdapterHost, ModuleRef],
          useFactory: (host: HttpAdapterHost, modules: ModuleRef) =>
            new ForwardedRoutesInstaller(host, modules, ports.calls),
        },
        { provide: SERVICE_PORTS, useValue: ports },
        PortAnswers,
      ],
      exports: ports.calls.map((contract) => contract.token),
    };
  }
}
