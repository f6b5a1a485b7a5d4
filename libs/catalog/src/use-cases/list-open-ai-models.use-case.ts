import { Injectable } from '@nestjs/common';
import { AnswerCache, type SerializedJson } from '@gen/edge';
import { CatalogService } from '../persistence/catalog.service';

/** `/v1/models` in the OpenAI list shape (no prices), serialised and kept for a second. */
@Injectable()
export class ListOpenAiModelsUseCase {
  private readonly answers = new AnswerCache();

  constructor(private readonly catalog: CatalogService) {}

  execute(modality?: string): SerializedJson {
    return this.answers.get(modality ?? '', () => this.catalog.openAiList({ modality }));
  }
}
