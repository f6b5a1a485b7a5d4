import { serviceFileUri } from '@gen/contracts';
import type { Asset } from '../domain/asset';
import type { Entity } from '../domain/entity';
import type { PreviewLink, PreviewLinks } from './preview-links';

/** An asset on the wire (`GET /api/v1/assets/{assetId}` and every other asset answer). */
export interface AssetView extends PreviewLink {
  readonly assetId: string;
  readonly name: string;
  readonly favorite: boolean;
  readonly collectionId: string | null;
  readonly uri: string;
  readonly contentType: string;
  readonly bytes: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export async function assetViewOf(asset: Asset, previews: PreviewLinks): Promise<AssetView> {
  return {
    assetId: asset.id,
    name: asset.name,
    favorite: asset.favorite,
    collectionId: asset.collectionId,
    uri: serviceFileUri(asset.fileId),
    contentType: asset.contentType,
    bytes: asset.bytes,
    createdAt: asset.createdAt.toISOString(),
    updatedAt: asset.updatedAt.toISOString(),
    ...(await previews.of(asset.objectKey)),
  };
}

/** A character on the wire: its images in their order, each with a fresh preview link. */
export interface EntityView {
  readonly entityId: string;
  readonly name: string;
  readonly images: readonly ({ readonly uri: string; readonly contentType: string } & PreviewLink)[];
  readonly createdAt: string;
}

export async function entityViewOf(entity: Entity, previews: PreviewLinks): Promise<EntityView> {
  return {
    entityId: entity.id,
    name: entity.name,
    images: await Promise.all(
      entity.images.map(async (image) => ({
        uri: serviceFileUri(image.fileId),
        contentType: image.contentType,
        ...(await previews.of(image.objectKey)),
      })),
    ),
    createdAt: entity.createdAt.toISOString(),
  };
}
