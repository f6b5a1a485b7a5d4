import { Inject, Injectable, Module, Optional, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { LOGGER, type Logger } from '@gen/core';
import { defaultConsoleDir, loadConsoleFiles } from './console-files';
import { installConsoleWeb } from './install-console-web';

export interface ConsoleWebOptions {
  /** The built console (index.html, assets/); default: dist/console-web of this checkout. */
  readonly dir?: string;
}
const CONSOLE_WEB_OPTIONS = Symbol('ConsoleWebOptions');

/** Reads the built console once and mounts it on the app's Fastify instance before it listens. */
@Injectable()
class ConsoleWebRoutes implements OnModuleInit {
  constructor(
    @Inject(CONSOLE_WEB_OPTIONS) private readonly options: ConsoleWebOptions,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = this.http?.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.get !== 'function') return;
    const dir = this.options.dir ?? defaultConsoleDir();
    const files = loadConsoleFiles(dir);
    if (!files)
      this.logger.warn({ dir }, 'the web console is not built (npm run build): /console answers 404');
    installConsoleWeb(fastify, files);
  }
}

/**
 * The web console's single-page app at `/console`, for the app that serves the console's sign-in (the
 * gateway of distributed mode, and the embedded app).
 */
@Module({})
export class ConsoleWebModule {
  static forRoot(options: ConsoleWebOptions = {}): DynamicModule {
    return {
      module: ConsoleWebModule,
      providers: [{ provide: CONSOLE_WEB_OPTIONS, useValue: options }, ConsoleWebRoutes],
    };
  }
}
