import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gen/core';
import {
  LocalObjectStorage,
  OBJECT_STORAGE,
  S3ObjectStorage,
  type ObjectStorage,
  type S3ObjectStorageOptions,
} from '@gen/storage';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The base URL clients reach this process at: PUBLIC_BASE_URL, or the address bound once it listens.
 * Signed object URLs of embedded mode point here.
 */
export class PublicBaseUrl {
  private bound: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** Called when the server listens (see createHttpApp). */
  listening(url: string): void {
    this.bound = url;
  }

  get(): string {
    const url = this.configured?.replace(/\/$/, '') ?? this.bound;
    if (!url) throw new Error('the base URL is known once the server listens');
    return url;
  }
}

/**
 * The key of embedded mode's signed object URLs: 32 random bytes in DATA_DIR/object-url.key (mode 0600),
 * made on first start and kept, so URLs handed out stay valid across restarts until they expire.
 */
export function objectUrlSecret(dataDir: string): Buffer {
  return dataDirSecret(dataDir, 'object-url.key');
}

/**
 * A 32-byte key kept in DATA_DIR/<name> (mode 0600): made on first start and kept across restarts.
 * Two processes starting at once cannot both write it ('wx'); the loser reads the winner's key.
 */
export function dataDirSecret(dataDir: string, name: string): Buffer {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (secret.length < 32) throw new Error(`${file} holds no usable key: delete it to make a new one`);
  return secret;
}

/** The key that signs quotes: QUOTE_SIGNING_KEY, or one kept in DATA_DIR/quote.key (one machine's fleet shares it). */
export function quoteSigningKey(config: AppConfig): Buffer {
  return config.QUOTE_SIGNING_KEY
    ? Buffer.from(config.QUOTE_SIGNING_KEY, 'utf8')
    : dataDirSecret(config.DATA_DIR, 'quote.key');
}

/** The S3 adapter's options from the settings (also used by the start-up check). */
export function s3OptionsOf(config: AppConfig): S3ObjectStorageOptions {
  return {
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    keyPrefix: config.S3_KEY_PREFIX,
  };
}

/** OBJECT_STORAGE by MODE: a local directory in DATA_DIR (embedded), S3 (distributed). */
export function objectStorageProviders(): Provider[] {
  return [
    {
      provide: PublicBaseUrl,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new PublicBaseUrl(config.PUBLIC_BASE_URL),
    },
    {
      provide: OBJECT_STORAGE,
      inject: [APP_CONFIG, PublicBaseUrl],
      useFactory: (config: AppConfig, baseUrl: PublicBaseUrl): ObjectStorage => {
        if (config.MODE === 'distributed') {
          // The bucket is made, when missing, by the start-up check of the apps that need S3.
          return new S3ObjectStorage(s3OptionsOf(config));
        }
        return new LocalObjectStorage({
          directory: join(config.DATA_DIR, 'objects'),
          baseUrl: () => baseUrl.get(),
          secret: objectUrlSecret(config.DATA_DIR),
        });
      },
    },
  ];
}
