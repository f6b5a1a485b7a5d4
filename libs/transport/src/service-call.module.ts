import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DirectServiceCall, type DirectServiceCallOptions } from './direct-service-call';
import { SERVICE_CALL } from './service-call';
import { ServiceCallController } from './service-call.controller';
import { ServiceHandlers, type UnexpectedErrorReporter } from './service-handlers';
import { TcpServiceCall, type TcpServiceCallOptions } from './tcp-service-call';

export interface ServiceCallModuleOptions {
  /** Told about handlers' unexpected failures (callers only get a generic 500): log them here. */
  readonly reportUnexpected?: UnexpectedErrorReporter;
}

const handlersProvider = (options: ServiceCallModuleOptions): Provider => ({
  provide: ServiceHandlers,
  useFactory: () => new ServiceHandlers(options.reportUnexpected),
});

/**
 * Provides, to every module, the `ServiceHandlers` registry (a service registers what it answers) and the
 * `SERVICE_CALL` port (what it calls), in process or over TCP.
 */
@Module({})
export class ServiceCallModule {
  /** Embedded mode: every call is answered by a handler of this process. */
  static embedded(options: ServiceCallModuleOptions & DirectServiceCallOptions = {}): DynamicModule {
    return {
      module: ServiceCallModule,
      global: true,
      providers: [
        handlersProvider(options),
        {
          provide: SERVICE_CALL,
          useFactory: (handlers: ServiceHandlers) => new DirectServiceCall(handlers, options),
          inject: [ServiceHandlers],
        },
      ],
      exports: [ServiceHandlers, SERVICE_CALL],
    };
  }

  /**
   * Distributed mode: calls go over TCP to `services`; this process answers its own handlers' calls once
   * `connectServiceCallServer` has attached the TCP listener.
   */
  static distributed(options: ServiceCallModuleOptions & TcpServiceCallOptions): DynamicModule {
    return {
      module: ServiceCallModule,
      global: true,
      controllers: [ServiceCallController],
      providers: [
        handlersProvider(options),
        { provide: SERVICE_CALL, useFactory: () => new TcpServiceCall(options) },
      ],
      exports: [ServiceHandlers, SERVICE_CALL],
    };
  }
}
