import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import type { AssetChanges } from '../domain/asset';
import { assetViewOf, type AssetView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { AssetRepository } from '../persistence/asset.repository';

/** PATCH /api/v1/assets/{assetId}: rename it or change `favorite` (nothing else); another account's is 404. */
@Injectable()
export class UpdateAssetUseCase {
  constructor(
    private readonly assets: AssetRepository,
    private readonly previews: PreviewLinks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(principal: ApiKeyPrincipal, assetId: string, changes: AssetChanges): Promise<AssetView> {
    const asset = await this.assets.update(principal.accountId, assetId, changes, this.clock.now());
    if (!asset) throw new DomainError(BusinessCode.NotFound, 'asset.not_found');
    return assetViewOf(asset, this.previews);
  }
}
