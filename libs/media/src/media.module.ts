import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { FILES_PORT, MEDIA_INPUTS } from '@gen/contracts';
import { APP_CONFIG, type AppConfig } from '@gen/core';
import { parseAllowPrivateCidrs } from '@gen/ssrf';
import {
  COMMIT_WINDOW_SECONDS,
  MEDIA_OPTIONS,
  UPLOAD_URL_SECONDS,
  type MediaOptions,
} from './domain/media-options';
import { FilesController } from './http/files.controller';
import { FileRepository } from './persistence/file.repository';
import { MediaMigrations } from './persistence/media-schema';
import { FilesPortAdapter } from './adapters/files-port.adapter';
import { CommitFileUseCase } from './use-cases/commit-file.use-case';
import { CreateUploadTicketUseCase } from './use-cases/create-upload-ticket.use-case';
import { ImportFileUseCase } from './use-cases/import-file.use-case';
import { ResolveMediaInputUseCase } from './use-cases/resolve-media-input.use-case';
import { SweepTransitUseCase } from './use-cases/sweep-transit.use-case';
import { SweepUploadsUseCase } from './use-cases/sweep-uploads.use-case';
import { UploadRetentionWorker } from './workers/upload-retention.worker';

export interface MediaModuleOptions {
  /** Serve `/api/v1/common/upload-url`, `/api/v1/files/{fileId}/commit` and `/api/v1/files/import`. */
  readonly http: boolean;
  /** Run the upload retention sweep in this process. */
  readonly workers: boolean;
}

/** The CAs imports trust: the bundled public ones plus `FETCH_CA_FILE`; an unreadable file stops start-up. */
export function fetchTrust(caFile: string | undefined): SecureContext | undefined {
  if (!caFile) return undefined;
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new Error(`FETCH_CA_FILE ${caFile} cannot be read: ${(error as Error).message}`);
  }
  return createSecureContext({ ca: [...rootCertificates, pem] });
}

export function mediaOptionsOf(config: AppConfig): MediaOptions {
  const secureContext = fetchTrust(config.FETCH_CA_FILE);
  return {
    uploadUrlSeconds: UPLOAD_URL_SECONDS,
    commitWindowSeconds: COMMIT_WINDOW_SECONDS,
    fetchDeadlineMs: config.FETCH_DEADLINE_SECONDS * 1000,
    importsPerKey: config.IMPORT_CONCURRENCY_PER_KEY,
    fetch: {
      allowPrivateCidrs: parseAllowPrivateCidrs(
        config.FETCH_ALLOW_PRIVATE_CIDRS,
        'FETCH_ALLOW_PRIVATE_CIDRS',
      ),
      ...(secureContext ? { secureContext } : {}),
    },
  };
}

/**
 * Media: upload tickets, verified commits of direct uploads and of imports, FILES_PORT and MEDIA_INPUTS
 * (exported, so the modules composed with it by `composeDomains` reach the ready files: createTask checks
 * `service://` URIs, the runner reads media inputs). Needs OBJECT_STORAGE, DATABASE, CLOCK and APP_CONFIG from
 * the composing app.
 */
@Module({})
export class MediaModule {
  static forRoot(options: MediaModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: MEDIA_OPTIONS, inject: [APP_CONFIG], useFactory: mediaOptionsOf },
      MediaMigrations,
      FileRepository,
      CreateUploadTicketUseCase,
      CommitFileUseCase,
      ImportFileUseCase,
      SweepUploadsUseCase,
      SweepTransitUseCase,
      FilesPortAdapter,
      { provide: FILES_PORT, useExisting: FilesPortAdapter },
      ResolveMediaInputUseCase,
      { provide: MEDIA_INPUTS, useExisting: ResolveMediaInputUseCase },
      ...(options.workers ? [UploadRetentionWorker] : []),
    ];
    return {
      module: MediaModule,
      controllers: options.http ? [FilesController] : [],
      providers,
      exports: [FILES_PORT, MEDIA_INPUTS],
    };
  }
}
