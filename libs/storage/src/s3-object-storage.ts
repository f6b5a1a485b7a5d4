import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type {
  ObjectBytes,
  ObjectStorage,
  ReadableObject,
  PresignGetRequest,
  PresignPutRequest,
  SignedUrl,
  StoredObject,
} from './object-storage';

export interface S3ObjectStorageOptions {
  readonly endpoint?: string;
  /**
   * The endpoint presigned URLs name, when clients reach the store at another address than this process does
   * (compose: the apps reach `http://minio:9000`, a client on the host `http://127.0.0.1:9000`). The signature
   * covers the host, so the URL is signed for this one. Unset: `endpoint`.
   */
  readonly publicEndpoint?: string;
  readonly region: string;
  readonly bucket: string;
  /** With neither key, the default AWS credential chain (environment, profile, instance role). */
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly forcePathStyle: boolean;
  /** For tests: the presigner's clock. */
  readonly signingDate?: () => Date;
  /** Attempts per request (the SDK's default is 3, with backoff); a start-up probe that retries itself uses 1. */
  readonly maxAttempts?: number;
  /**
   * Put before every object key written, read, copied, deleted or presigned (S3_KEY_PREFIX), so that two
   * fleets can share one bucket; callers keep using their own keys. Empty by default.
   */
  readonly keyPrefix?: string;
}

/**
 * Object storage on S3 (or an S3-compatible server). Presigned uploads sign the content type and the content
 * length, so a server that verifies SigV4 refuses another type or size; the SDK's default empty-body checksum
 * is turned off (`WHEN_REQUIRED`), since a presigned PUT cannot carry it.
 */
export class S3ObjectStorage implements ObjectStorage {
  private readonly client: S3Client;
  /** Signs the URLs clients use: `client` unless a public endpoint is set (it only signs, never sends). */
  private readonly presigner: S3Client;
  private readonly keyPrefix: string;

  constructor(private readonly options: S3ObjectStorageOptions) {
    this.client = this.clientFor(options.endpoint);
    this.presigner = options.publicEndpoint ? this.clientFor(options.publicEndpoint) : this.client;
    this.keyPrefix = options.keyPrefix ?? '';
  }

  private clientFor(endpoint: string | undefined): S3Client {
    const options = this.options;
    return new S3Client({
      endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    });
  }

  /** The key in the bucket of the caller's `key`. */
  private stored(key: string): string {
    return this.keyPrefix + key;
  }

  /**
   * Creates the bucket when the server says it does not exist (404); any other failure (unreachable, no
   * permission) is thrown as it is. `abortSignal` bounds the whole check.
   */
  async ensureBucket(options: { abortSignal?: AbortSignal } = {}): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }), options);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 404) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.options.bucket }), options);
    }
  }

  async presignPut(request: PresignPutRequest): Promise<SignedUrl> {
    const signingDate = this.options.signingDate?.() ?? new Date();
    const command = new PutObjectCommand({
      Bucket: this.options.bucket,
      Key: this.stored(request.key),
      ContentType: request.contentType,
      ContentLength: request.contentLength,
    });
    const url = await getSignedUrl(this.presigner, command, {
      expiresIn: request.expiresInSeconds,
      signingDate,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000),
      headers: { 'content-type': request.contentType, 'content-length': String(request.contentLength) },
    };
  }

  async presignGet(request: PresignGetRequest): Promise<SignedUrl> {
    const signingDate = this.options.signingDate?.() ?? new Date();
    const url = await getSignedUrl(
      this.presigner,
      new GetObjectCommand({ Bucket: this.options.bucket, Key: this.stored(request.key) }),
      {
        expiresIn: request.expiresInSeconds,
        signingDate,
      },
    );
    return { url, expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000), headers: {} };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.stored(key),
        Body: body,
        ContentType: contentType,
      }),
    );
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.stored(key) }),
      );
      return { key, bytes: head.ContentLength ?? 0, contentType: head.ContentType };
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return null;
      throw error;
    }
  }

  async read(key: string): Promise<ReadableObject | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.stored(key) }),
      );
      return {
        key,
        bytes: object.ContentLength ?? 0,
        contentType: object.ContentType,
        stream: object.Body as Readable,
      };
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return null;
      throw error;
    }
  }

  /** The body of a GET, joined once; a body that turns out longer than `maxBytes` is dropped unread. */
  async readBytes(key: string, maxBytes: number): Promise<ObjectBytes | null> {
    const object = await this.read(key);
    if (!object) return null;
    const { stream, ...stored } = object;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      if (stored.bytes > maxBytes) return { ...stored, body: null };
      for await (const chunk of stream) {
        const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += part.length;
        if (size > maxBytes) return { ...stored, body: null };
        chunks.push(part);
      }
    } finally {
      stream.destroy();
    }
    return { ...stored, body: Buffer.concat(chunks, size) };
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.options.bucket,
        Key: this.stored(toKey),
        CopySource: `${this.options.bucket}/${this.stored(fromKey).split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  async move(fromKey: string, toKey: string): Promise<boolean> {
    try {
      await this.copy(fromKey, toKey);
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return false;
      throw error;
    }
    await this.delete(fromKey);
    return true;
  }

  async listOlder(prefix: string, before: Date, limit: number): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.stored(prefix),
          ContinuationToken: token,
          MaxKeys: 1000,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified < before) {
          keys.push(object.Key.slice(this.keyPrefix.length));
          if (keys.length === limit) return keys;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.stored(key) }));
  }

  close(): void {
    this.client.destroy();
  }
}
