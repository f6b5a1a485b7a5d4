import { Injectable } from '@nestjs/common';
import { AnswerCache, type SerializedJson } from '@gen/edge';
import { CatalogService, type ModelListFilters } from '../persistence/catalog.service';

/**
 * The model list, serialised: priced for a caller's multiplier, or at standard prices (no multiplier: the
 * public catalog). Answers are kept for a second: the catalog is fixed at start, but `available` follows
 * credentials and circuit breakers, so an answer is never older than that.
 */
@Injectable()
export class ListModelsUseCase {
  private readonly answers = new AnswerCache();

  constructor(private readonly catalog: CatalogService) {}

  execute(filters: ModelListFilters, multiplier?: string | bigint): SerializedJson {
    const key = JSON.stringify([filters, multiplier === undefined ? null : String(multiplier)]);
    return this.answers.get(key, () => ({
      items: this.catalog.list(filters, multiplier === undefined ? {} : { multiplier }),
    }));
  }
}
