import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { decodeEntityCursor, encodeEntityCursor } from '../domain/entity-list-cursor';
import { entityViewOf, type EntityView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { EntityRepository } from '../persistence/entity.repository';

export interface EntityPage {
  readonly items: EntityView[];
  /** Absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * The account's characters, read only (GET /api/v1/assets/entities[/{entityId}]; the admin API lists them
 * too): oldest first, one page at a time, each image with a fresh preview link. Another account's is 404.
 */
@Injectable()
export class ReadEntitiesUseCase {
  constructor(
    private readonly entities: EntityRepository,
    private readonly previews: PreviewLinks,
  ) {}

  async list(accountId: string, query: { limit?: string; cursor?: string }): Promise<EntityPage> {
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    const cursor = query.cursor !== undefined ? decodeEntityCursor(query.cursor) : undefined;
    const rows = await this.entities.list(accountId, {
      ...(cursor ? { after: { createdAt: new Date(cursor.createdAt), entityId: cursor.entityId } } : {}),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await Promise.all(page.map((entity) => entityViewOf(entity, this.previews))),
      ...(rows.length > limit && last
        ? { nextCursor: encodeEntityCursor({ createdAt: last.createdAt.toISOString(), entityId: last.id }) }
        : {}),
    };
  }

  async get(accountId: string, entityId: string): Promise<EntityView> {
    const entity = await this.entities.find(accountId, entityId);
    if (!entity) throw new DomainError(BusinessCode.NotFound, 'entity.not_found');
    return entityViewOf(entity, this.previews);
  }
}
