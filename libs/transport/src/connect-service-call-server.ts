import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { Server } from 'node:net';
import { ServiceCallController } from './service-call.controller';
import type { ServiceAddress } from './tcp-service-call';

/**
 * Attaches the TCP listener that answers remote service calls to an initialised Nest app whose root module
 * imports `ServiceCallModule.distributed(...)`, and starts it. Port 0 picks a free port; the address bound
 * is returned. `app.close()` closes the listener too.
 */
export async function connectServiceCallServer(
  app: INestApplication,
  address: ServiceAddress,
): Promise<ServiceAddress> {
  // Looked up in the module graph: `app.get` of a missing class ends the process under `abortOnError`.
  const modules = [...app.get(ModulesContainer).values()];
  if (!modules.some((module) => module.controllers.has(ServiceCallController))) {
    throw new Error('connectServiceCallServer: the app does not import ServiceCallModule.distributed(...)');
  }
  const microservice = app.connectMicroservice<MicroserviceOptions>({
    transport: Transport.TCP,
    options: { host: address.host, port: address.port },
  });
  await microservice.listen();
  const bound = microservice.unwrap<Server>().address();
  return { host: address.host, port: typeof bound === 'object' && bound ? bound.port : address.port };
}
