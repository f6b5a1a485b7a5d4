import { Injectable } from '@nestjs/common';
import { BusinessCode, type ApiKeyPrincipal } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { AssetRepository } from '../persistence/asset.repository';

/**
 * DELETE /api/v1/assets/{assetId}: removes the asset from the library (its usage drops at once). The file it
 * names stays a file of the account, under the files' own retention. Another account's asset is 404.
 */
@Injectable()
export class DeleteAssetUseCase {
  constructor(private readonly assets: AssetRepository) {}

  async execute(principal: ApiKeyPrincipal, assetId: string): Promise<{ assetId: string; deleted: true }> {
    if (!(await this.assets.delete(principal.accountId, assetId))) {
      throw new DomainError(BusinessCode.NotFound, 'asset.not_found');
    }
    return { assetId, deleted: true };
  }
}
