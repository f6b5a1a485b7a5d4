import { Inject, Injectable } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  BusinessCode,
  FILES_PORT,
  IdPrefix,
  type AccountDirectory,
  type FilesPort,
} from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import type { Entity, EntityImage } from '../domain/entity';
import { entityViewOf, type EntityView } from '../mappers/asset-view';
import { PreviewLinks } from '../mappers/preview-links';
import { EntityRepository } from '../persistence/entity.repository';
import { ReadEntitiesUseCase, type EntityPage } from './read-entities.use-case';

export interface CreateEntity {
  readonly name: string;
  /** `service://files/...` URIs of ready files of the account, in the character's order. */
  readonly images: readonly string[];
}

/**
 * `/admin/v1/accounts/{accountId}/asset-entities`: operators make and remove an account's characters (the API
 * reads them only). Each image must be a ready file of that account (400 naming `images.<n>` otherwise); an
 * unknown account is 404.
 */
@Injectable()
export class ManageEntitiesUseCase {
  constructor(
    private readonly entities: EntityRepository,
    private readonly previews: PreviewLinks,
    private readonly reader: ReadEntitiesUseCase,
    @Inject(FILES_PORT) private readonly files: FilesPort,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(accountId: string, command: CreateEntity): Promise<EntityView> {
    await this.requireAccount(accountId);
    const images: EntityImage[] = [];
    for (const [index, uri] of command.images.entries()) {
      const file = await this.files.findReady(accountId, uri);
      if (!file) {
        throw new DomainError(BusinessCode.InvalidRequest, 'asset.file_not_ready', {
          field: `images.${index}`,
        });
      }
      images.push({ fileId: file.fileId, objectKey: file.objectKey, contentType: file.contentType });
    }
    const now = this.clock.now();
    const entity: Entity = {
      id: newId(IdPrefix.assetEntity, now.getTime()),
      accountId,
      name: command.name,
      images,
      createdAt: now,
    };
    await this.entities.create(entity);
    return entityViewOf(entity, this.previews);
  }

  async list(accountId: string, query: { limit?: string; cursor?: string }): Promise<EntityPage> {
    await this.requireAccount(accountId);
    return this.reader.list(accountId, query);
  }

  async delete(accountId: string, entityId: string): Promise<{ entityId: string; deleted: true }> {
    await this.requireAccount(accountId);
    if (!(await this.entities.delete(accountId, entityId))) {
      throw new DomainError(BusinessCode.NotFound, 'entity.not_found');
    }
    return { entityId, deleted: true };
  }

  private async requireAccount(accountId: string): Promise<void> {
    if (!(await this.accounts.exists(accountId))) {
      throw new DomainError(BusinessCode.NotFound, 'account.not_found');
    }
  }
}
