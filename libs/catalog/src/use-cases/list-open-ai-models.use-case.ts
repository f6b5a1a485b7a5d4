import { Injectable } from '@nestjs/common';
import { AnswerCache, type SerializedJson } from '@gen/edge';
import { ANSWER_TTL_MS } from './list-models.use-case';
import { CatalogService } from '../persistence/catalog.service';

/** `/v1/models` in the OpenAI list shape (no prices), serialised and kept for half a second. */
@Injectable()
export class ListOpenAiModelsUseCase {
  private readonly answers = new AnswerCache(ANSWER_TTL_MS);

  constructor(private readonly catalog: CatalogService) {}

  execute(modality?: string): SerializedJson {
    return this.answers.get(modality ?? '', () => this.catalog.openAiList({ modality }));
  }
}
