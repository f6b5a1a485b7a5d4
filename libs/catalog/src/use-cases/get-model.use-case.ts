import { Injectable } from '@nestjs/common';
import { AnswerCache, type SerializedJson } from '@gen/edge';
import { ANSWER_TTL_MS } from './list-models.use-case';
import { CatalogService } from '../persistence/catalog.service';

/** One model record priced for the caller, serialised and kept for half a second (as the list). */
@Injectable()
export class GetModelUseCase {
  private readonly answers = new AnswerCache(ANSWER_TTL_MS);

  constructor(private readonly catalog: CatalogService) {}

  /** The id may be an alias; an unknown one throws before anything is kept. */
  execute(idOrAlias: string, multiplier: string | bigint): SerializedJson {
    const model = this.catalog.resolve(idOrAlias);
    return this.answers.get(`${model.id}|${String(multiplier)}`, () =>
      this.catalog.get(model.id, { multiplier }),
    );
  }
}
