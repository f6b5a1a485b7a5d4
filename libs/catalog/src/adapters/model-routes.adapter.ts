import { Injectable } from '@nestjs/common';
import type { ModelRoute, ModelRoutesPort } from '@gen/contracts';
import { CatalogService } from '../persistence/catalog.service';

/** The catalog's side of the provider port (MODEL_ROUTES): a model's bindings, the first then its fallbacks. */
@Injectable()
export class ModelRoutesAdapter implements ModelRoutesPort {
  private readonly routes = new Map<string, ModelRoute | null>();

  constructor(private readonly catalog: CatalogService) {}

  routeFor(modelId: string): ModelRoute | null {
    let route = this.routes.get(modelId);
    if (route === undefined) {
      const model = this.catalog.find(modelId);
      route = model
        ? {
            model: model.id,
            modality: model.modality,
            bindings: [model.binding, ...model.fallbacks],
            mediaFields: model.mediaFields,
          }
        : null;
      this.routes.set(modelId, route);
    }
    return route;
  }
}
