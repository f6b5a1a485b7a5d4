import 'reflect-metadata';
import { Global, Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { HOLDS_PORT, type HoldsPort } from '@gen/contracts';
import { ConfigError, createLogger, loadConfig } from '@gen/core';
import { OBJECT_STORAGE } from '@gen/storage';
import {
  ACCOUNT_DIRECTORY_CONTRACT,
  API_KEY_AUTHENTICATOR_CONTRACT,
  FILES_CONTRACT,
  HOLDS_CONTRACT,
  ServiceUnavailableError,
  connectServiceCallServer,
} from '@gen/transport';
import {
  ServicePortsModule,
  parseServiceAddresses,
  requireServiceAddresses,
  serviceAddressesFor,
  serviceCallAddress,
  type ServicePorts,
} from './service-ports';

const logger = createLogger('silent');

describe('SERVICE_ADDRESSES', () => {
  it('lists each app with its replicas in the order given; hosts may be names or IPv6 in brackets', () => {
    const addresses = parseServiceAddresses(
      'gateway=10.0.0.1:4000,billing=billing.internal:4100,gateway=[fd00::2]:4001',
    );
    expect([...addresses]).toEqual([
      [
        'gateway',
        [
          { host: '10.0.0.1', port: 4000 },
          { host: 'fd00::2', port: 4001 },
        ],
      ],
      ['billing', [{ host: 'billing.internal', port: 4100 }]],
    ]);
    expect(parseServiceAddresses(undefined).size).toBe(0);
  });

  it.each([
    [
      'ledger=10.0.0.1:4000',
      'names "ledger", which is not an app of the fleet (gateway, compat-protocols, tasks, billing, runner, webhooks, media, catalog)',
    ],
    ['billing=10.0.0.1:0', 'has a bad address for billing: "10.0.0.1:0"'],
    ['billing=10.0.0.1:70000', 'has a bad address for billing: "10.0.0.1:70000"'],
  ])('refuses %j naming the setting', (raw, problem) => {
    const error = (() => {
      try {
        parseServiceAddresses(raw);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      setting: 'SERVICE_ADDRESSES',
      message: `Invalid configuration: SERVICE_ADDRESSES ${problem}`,
    });
  });

  const compat: ServicePorts = { answers: [], calls: [API_KEY_AUTHENTICATOR_CONTRACT, HOLDS_CONTRACT] };

  it('is required by an app that calls another, naming what it calls of each', () => {
    expect(() => requireServiceAddresses(loadConfig({}), compat)).toThrow(
      'Invalid configuration: SERVICE_ADDRESSES is required: this app calls gateway (accounts.apiKeys); billing (billing.holds)',
    );
    expect(() =>
      requireServiceAddresses(loadConfig({ SERVICE_ADDRESSES: 'gateway=127.0.0.1:4000' }), compat),
    ).toThrow(
      'Invalid configuration: SERVICE_ADDRESSES names no address of billing, which this app calls (billing.holds)',
    );
    const config = loadConfig({ SERVICE_ADDRESSES: 'gateway=127.0.0.1:4000,billing=127.0.0.1:4100' });
    expect(() => requireServiceAddresses(config, compat)).not.toThrow();
    // An app that only answers needs none.
    expect(() =>
      requireServiceAddresses(loadConfig({}), { answers: [HOLDS_CONTRACT], calls: [] }),
    ).not.toThrow();
  });

  it('reaches each service at the addresses of the app that answers it', () => {
    const config = loadConfig({
      SERVICE_ADDRESSES: 'gateway=gw-1:4000,gateway=gw-2:4000,billing=billing:4000,media=media:4000',
    });
    expect(
      serviceAddressesFor(config, { answers: [], calls: [ACCOUNT_DIRECTORY_CONTRACT, FILES_CONTRACT] }),
    ).toEqual({
      accounts: [
        { host: 'gw-1', port: 4000 },
        { host: 'gw-2', port: 4000 },
      ],
      media: [{ host: 'media', port: 4000 }],
    });
  });

  it('binds the listener on SERVICE_CALL_HOST, else HOST, at SERVICE_CALL_PORT (4000 by default)', () => {
    expect(serviceCallAddress(loadConfig({ HOST: '0.0.0.0' }))).toEqual({ host: '0.0.0.0', port: 4000 });
    expect(serviceCallAddress(loadConfig({ SERVICE_CALL_HOST: '10.0.0.7', SERVICE_CALL_PORT: '0' }))).toEqual(
      {
        host: '10.0.0.7',
        port: 0,
      },
    );
  });
});

/** OBJECT_STORAGE, as the platform module provides it to every app. */
@Global()
@Module({ providers: [{ provide: OBJECT_STORAGE, useValue: {} }], exports: [OBJECT_STORAGE] })
class ObjectsModule {}

/** Billing's module as an app composes it: the port is its provider, exported to nobody. */
const held: string[] = [];
const holds: HoldsPort = {
  async reserve(command) {
    held.push(command.holdId);
    return { holdId: command.holdId, status: 'reserved', amount: command.amount };
  },
  async check() {},
  async confirm() {
    return null;
  },
  async settle() {
    return null;
  },
  async release() {
    return null;
  },
};
@Module({ providers: [{ provide: HOLDS_PORT, useValue: holds }] })
class BillingLikeModule {}

@Module({})
class AppRoot {}

const appOf = (
  ports: ServicePorts,
  env: NodeJS.ProcessEnv,
  ...imports: DynamicModule['imports'] & object
): DynamicModule => ({
  module: AppRoot,
  imports: [ObjectsModule, ...imports, ServicePortsModule.forRoot(loadConfig(env), logger, ports)],
});

describe('ServicePortsModule', () => {
  const opened: INestApplicationContext[] = [];
  afterAll(() => Promise.all(opened.map((app) => app.close())));

  it("answers its domain's port from the module that provides it; another app injects the port and calls it", async () => {
    const billing = await NestFactory.create(
      appOf({ answers: [HOLDS_CONTRACT], calls: [] }, {}, BillingLikeModule),
      new FastifyAdapter(),
      { logger: false },
    );
    opened.push(billing);
    await billing.init();
    const { port } = await connectServiceCallServer(billing, { host: '127.0.0.1', port: 0 });

    const tasks = await NestFactory.createApplicationContext(
      appOf({ answers: [], calls: [HOLDS_CONTRACT] }, { SERVICE_ADDRESSES: `billing=127.0.0.1:${port}` }),
      { logger: false },
    );
    opened.push(tasks);
    const remote = tasks.get<HoldsPort>(HOLDS_PORT);
    expect(remote).not.toBe(holds);
    const command = {
      holdId: 'job_1',
      accountId: 'acc_1',
      keyId: 'key_1',
      model: 'm',
      amount: '1',
      dailyCap: '10',
    };
    await expect(remote.reserve(command)).resolves.toEqual({
      holdId: 'job_1',
      status: 'reserved',
      amount: '1',
    });
    expect(held).toEqual(['job_1']);

    await billing.close();
    opened.splice(opened.indexOf(billing), 1);
    const error = await remote.reserve(command).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(held).toEqual(['job_1']);
  });

  it('refuses to start an app that answers a port none of its modules provides', async () => {
    await expect(
      NestFactory.createApplicationContext(appOf({ answers: [HOLDS_CONTRACT], calls: [] }, {}), {
        logger: false,
        abortOnError: false,
      }),
    ).rejects.toThrow('this app answers billing.holds but composes no module that provides it');
  });
});
