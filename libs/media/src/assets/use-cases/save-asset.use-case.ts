import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, FILES_PORT, IdPrefix, type ApiKeyPrincipal, type FilesPort } from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import type { Asset } from '../domain/asset';
import { MAX_ASSET_NAME_LENGTH } from '../domain/asset-list-cursor';
import { assertWithinLimits, limitsOf } from '../domain/asset-plans';
import {
  ASSET_IDEMPOTENCY_WINDOW_MS,
  requiredIdempotencyKey,
  saveFingerprint,
  type SaveRequest,
} from '../domain/save-idempotency';
import { assetViewOf, type AssetView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { AssetLimitsRepository } from '../persistence/asset-limits.repository';
import { AssetRepository, type IdempotencyHolder } from '../persistence/asset.repository';

export interface SaveAssetCommand {
  readonly principal: ApiKeyPrincipal;
  /** The Idempotency-Key header (required). */
  readonly idempotencyKey: string | undefined;
  readonly request: SaveRequest;
}

export interface SavedAsset {
  readonly asset: AssetView;
  /** True when an earlier call with the same Idempotency-Key saved it. */
  readonly replayed: boolean;
}

/**
 * POST /api/v1/assets. The order makes a refusal leave nothing behind: the Idempotency-Key (400 without
 * one); a key seen before answers with what it saved (409 for another API key or another body) before
 * anything else is looked at; the file must be a ready file of the caller's account (else 400, revealing
 * nothing about other accounts' files); then, under the account's lock, the limits (403) and one
 * transaction that writes the asset and claims the key.
 */
@Injectable()
export class SaveAssetUseCase {
  constructor(
    private readonly assets: AssetRepository,
    private readonly limits: AssetLimitsRepository,
    private readonly previews: PreviewLinks,
    @Inject(FILES_PORT) private readonly files: FilesPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: SaveAssetCommand): Promise<SavedAsset> {
    const { principal, request } = command;
    const idemKey = requiredIdempotencyKey(command.idempotencyKey);
    const fingerprint = saveFingerprint(request);
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - ASSET_IDEMPOTENCY_WINDOW_MS);
    const holder = await this.assets.findHolder(principal.accountId, idemKey, windowStart);
    if (holder) return this.replay(principal, holder, fingerprint);

    const file = await this.files.findReady(principal.accountId, request.uri);
    if (!file) throw new DomainError(BusinessCode.InvalidRequest, 'asset.file_not_ready', { field: 'uri' });
    const limits = limitsOf(await this.limits.find(principal.accountId));
    const asset: Asset = {
      id: newId(IdPrefix.asset, now.getTime()),
      accountId: principal.accountId,
      name: request.name ?? defaultName(file.fileName, file.fileId),
      favorite: request.favorite ?? false,
      collectionId: request.collectionId ?? null,
      fileId: file.fileId,
      objectKey: file.objectKey,
      contentType: file.contentType,
      bytes: file.bytes,
      createdByKeyId: principal.keyId,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await this.assets.saveOnce(
      asset,
      { idemKey, keyId: principal.keyId, fingerprint, windowStart },
      (usage) => assertWithinLimits(usage, limits, file.bytes),
    );
    if ('holder' in outcome) return this.replay(principal, outcome.holder, fingerprint);
    return { asset: await assetViewOf(outcome.saved, this.previews), replayed: false };
  }

  /** A key used before: the asset it saved, for the same API key and the same request only. */
  private async replay(
    principal: ApiKeyPrincipal,
    holder: IdempotencyHolder,
    fingerprint: string,
  ): Promise<SavedAsset> {
    if (holder.keyId !== principal.keyId) {
      throw new DomainError(BusinessCode.Conflict, 'idempotency.other_api_key');
    }
    if (holder.fingerprint !== fingerprint) {
      throw new DomainError(BusinessCode.Conflict, 'idempotency.conflict');
    }
    const asset = await this.assets.find(principal.accountId, holder.assetId);
    if (!asset) {
      throw new DomainError(BusinessCode.NotFound, 'asset.replay_deleted', { assetId: holder.assetId });
    }
    return { asset: await assetViewOf(asset, this.previews), replayed: true };
  }
}

/** Without a `name`, the file's own name (its first 200 characters), else its id. */
function defaultName(fileName: string | undefined, fileId: string): string {
  const name = fileName ? [...fileName].slice(0, MAX_ASSET_NAME_LENGTH).join('') : '';
  return name || fileId;
}
