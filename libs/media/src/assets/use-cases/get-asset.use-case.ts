import { Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { assetViewOf, type AssetView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { AssetRepository } from '../persistence/asset.repository';

/** GET /api/v1/assets/{assetId}: one asset of the account with a fresh preview link; another account's is 404. */
@Injectable()
export class GetAssetUseCase {
  constructor(
    private readonly assets: AssetRepository,
    private readonly previews: PreviewLinks,
  ) {}

  async execute(principal: ApiKeyPrincipal, assetId: string): Promise<AssetView> {
    const asset = await this.assets.find(principal.accountId, assetId);
    if (!asset) throw new DomainError(BusinessCode.NotFound, 'asset.not_found');
    return assetViewOf(asset, this.previews);
  }
}
