import { Inject, Injectable } from '@nestjs/common';
import {
  BusinessCode,
  CATALOG_PORT,
  FILES_PORT,
  fileIdOfUri,
  type ApiKeyPrincipal,
  type CatalogPort,
  type FilesPort,
  type MediaInputValue,
  type PreparedTask,
} from '@gen/contracts';
import { DomainError, copyFields, lazyField } from '@gen/core';
import { checkCallbackUrl } from '@gen/ssrf';
import { createHash } from 'node:crypto';
import { TASKS_OPTIONS, type TasksOptions } from './task-options';

/** The body of quote, createTask and stream (spec: Task request). */
export interface TaskRequest {
  readonly model: string;
  readonly input: unknown;
  readonly callBackUrl?: unknown;
  readonly quoteId?: string;
  readonly expectedCost?: string;
}

export interface PreparedRequest extends PreparedTask {
  /** The WHATWG-normalized callback URL, or null. */
  readonly callbackUrl: string | null;
  /** sha256 of the normalized model, input and callback URL: idempotency and quotes compare this. */
  readonly requestHash: string;
}

/**
 * What quote, createTask and retry check alike: the model and input against the catalog (404, 400, 503),
 * then each `service://` file of a media field (400 naming the field), then the callback URL by the rules of
 * Limits (400 "Invalid callback URL", nothing more is said).
 */
@Injectable()
export class PrepareTaskRequest {
  constructor(
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(TASKS_OPTIONS) private readonly options: TasksOptions,
    @Inject(FILES_PORT) private readonly files: FilesPort,
  ) {}

  async prepare(principal: ApiKeyPrincipal, request: TaskRequest): Promise<PreparedRequest> {
    const prepared = this.catalog.prepareTask(request.model, request.input, principal.priceMultiplier);
    for (const media of prepared.mediaInputs) await this.checkFile(principal.accountId, media);
    const callbackUrl = await this.callbackUrl(request.callBackUrl);
    // Compared only with an Idempotency-Key or a quote: hashed then, from the fingerprint computed then too.
    return lazyField(Object.assign(copyFields(prepared), { callbackUrl }), 'requestHash', () =>
      createHash('sha256')
        .update(`${prepared.fingerprint}\n${callbackUrl ?? ''}`)
        .digest('hex'),
    );
  }

  /**
   * A `service://` URI must name a ready file of the caller's account, of the field's kind. Another account's
   * file answers exactly as a file that does not exist. An https URL passed the syntax check of the schema;
   * the runner fetches it through the SSRF guard.
   */
  private async checkFile(accountId: string, media: MediaInputValue): Promise<void> {
    if (fileIdOfUri(media.value) === null) return;
    const field = `input.${media.field}`;
    const file = await this.files.findReady(accountId, media.value);
    if (!file) throw new DomainError(BusinessCode.InvalidRequest, 'input.media_not_found', { field });
    if (!file.contentType.startsWith(`${media.kind}/`)) {
      throw new DomainError(BusinessCode.InvalidRequest, 'input.media_wrong_kind', {
        field,
        kind: media.kind,
        contentType: file.contentType,
      });
    }
  }

  private async callbackUrl(raw: unknown): Promise<string | null> {
    if (raw === undefined) return null;
    if (typeof raw !== 'string') throw new DomainError(BusinessCode.InvalidRequest, 'callback.invalid');
    const checked = await checkCallbackUrl(raw, { allowPrivateCidrs: this.options.allowPrivateCidrs });
    if (!checked.ok) throw new DomainError(BusinessCode.InvalidRequest, 'callback.invalid');
    return checked.url;
  }
}
