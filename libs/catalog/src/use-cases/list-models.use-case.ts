import { Injectable } from '@nestjs/common';
import { AnswerCache, type SerializedJson } from '@gen/edge';
import { CatalogService, type ModelListFilters } from '../persistence/catalog.service';

/**
 * The model list, serialised: priced for a caller's multiplier, or at standard prices (no multiplier: the
 * public catalog). Answers are kept for half a second: the catalog is fixed at start, but `available` follows
 * credentials and circuit breakers (read from Redis every 250 ms in a fleet), so a tripped upstream shows
 * within a second.
 */
/** How long a serialised catalog answer is reused: `available` may be this much (plus the circuit reload) late. */
export const ANSWER_TTL_MS = 500;

@Injectable()
export class ListModelsUseCase {
  private readonly answers = new AnswerCache(ANSWER_TTL_MS);

  constructor(private readonly catalog: CatalogService) {}

  execute(filters: ModelListFilters, multiplier?: string | bigint): SerializedJson {
    const key = JSON.stringify([filters, multiplier === undefined ? null : String(multiplier)]);
    return this.answers.get(key, () => ({
      items: this.catalog.list(filters, multiplier === undefined ? {} : { multiplier }),
    }));
  }
}
