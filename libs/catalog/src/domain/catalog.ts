import type { ValidateFunction } from 'ajv';
import type { CatalogModel } from './model';

/** A model of the loaded catalog with its input validator, compiled once at load. */
export interface LoadedModel extends CatalogModel {
  readonly validateInput: ValidateFunction;
}

/** The loaded catalog: models in file order, found by exact id or by alias. Immutable. */
export class Catalog {
  private readonly byName = new Map<string, LoadedModel>();

  constructor(readonly models: readonly LoadedModel[]) {
    for (const model of models) {
      this.byName.set(model.id, model);
      for (const alias of model.aliases) this.byName.set(alias, model);
    }
  }

  /** The model whose id or alias is `idOrAlias` (exact, case-sensitive), or undefined. */
  find(idOrAlias: string): LoadedModel | undefined {
    return this.byName.get(idOrAlias);
  }
}
