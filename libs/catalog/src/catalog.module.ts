import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { AVAILABILITY_SOURCES, CATALOG, CatalogService } from './persistence/catalog.service';
import { ModelsController } from './http/models.controller';
import { CatalogPortAdapter } from './adapters/catalog-port.adapter';
import { GetModelUseCase } from './use-cases/get-model.use-case';
import { ListModelsUseCase } from './use-cases/list-models.use-case';
import { ListOpenAiModelsUseCase } from './use-cases/list-open-ai-models.use-case';
import {
  CATALOG_DOCUMENT,
  CATALOG_MODELS,
  CATALOG_PORT,
  type CatalogModelsPort,
  type CatalogDocumentPort,
  CIRCUIT_STATE,
  MODEL_ROUTES,
  endpointKey,
  type CircuitStatePort,
} from '@gen/contracts';
import { ModelRoutesAdapter } from './adapters/model-routes.adapter';
import { environmentCredentials, type AvailabilitySources } from './domain/availability';
import { catalogFilePath } from './persistence/catalog-file-path';
import { buildCatalog, readCatalogFile, type LoadCatalogOptions } from './persistence/load-catalog';

export interface CatalogModuleOptions extends LoadCatalogOptions {
  /** The catalog file; defaults to `catalogFilePath()` (CATALOG_FILE, else the shipped catalog). */
  readonly file?: string;
  /** Where credentials are looked up; defaults to the process environment. */
  readonly availability?: AvailabilitySources;
  /**
   * Serve the catalog's routes (`/api/v1/models`, `/v1/models`, `/console/v1/catalog/models`); default true.
   * The catalog app serves them in distributed mode (docs/architecture.md); compat-protocols reads the catalog
   * from it (`source: 'remote'`) with no routes of its own.
   */
  readonly http?: boolean;
  /**
   * Where the catalog comes from: `file` (the default) reads it, and answers CATALOG_DOCUMENT with it;
   * `remote` builds it at start from the document of the app that owns it (CATALOG_DOCUMENT over the service
   * transport: the catalog app in distributed mode), so that a fleet has one catalog file.
   */
  readonly source?: 'file' | 'remote';
}

/** The catalog of this app and, where it owns the file, the document other apps build theirs from. */
function catalogProviders(options: CatalogModuleOptions): Provider[] {
  if (options.source === 'remote') {
    return [
      {
        provide: CATALOG,
        inject: [CATALOG_DOCUMENT],
        useFactory: async (owner: CatalogDocumentPort) => buildCatalog(await owner.document(), options),
      },
    ];
  }
  // Loaded here, while the module is defined: a bad catalog stops start-up before anything else is built (no
  // database opened, nothing migrated).
  const document = readCatalogFile(options.file ?? catalogFilePath());
  const catalog = buildCatalog(document, options);
  const port: CatalogDocumentPort = { document: () => Promise.resolve(document) };
  return [
    { provide: CATALOG, useValue: catalog },
    { provide: CATALOG_DOCUMENT, useValue: port },
  ];
}

/**
 * The catalog service. The file is loaded and validated when the module is built, so a bad catalog stops
 * start-up with a CatalogLoadError naming the model and the field.
 */
@Module({})
export class CatalogModule {
  static forRoot(options: CatalogModuleOptions = {}): DynamicModule {
    return {
      module: CatalogModule,
      // CATALOG_PORT reaches the tasks domain without one domain library importing another.
      global: true,
      controllers: options.http === false ? [] : [ModelsController],
      providers: [
        ...catalogProviders(options),
        {
          provide: AVAILABILITY_SOURCES,
          inject: [{ token: CIRCUIT_STATE, optional: true }],
          useFactory: (circuits: CircuitStatePort | undefined): AvailabilitySources =>
            options.availability ?? {
              ...environmentCredentials(),
              // The circuits the runners' breakers report (Redis in distributed mode): an open one makes the
              // model unavailable unless a fallback binding is usable.
              ...(circuits ? { circuitOpen: (binding) => circuits.isOpen(endpointKey(binding)) } : {}),
            },
        },
        CatalogService,
        CatalogPortAdapter,
        ListModelsUseCase,
        GetModelUseCase,
        ListOpenAiModelsUseCase,
        { provide: CATALOG_PORT, useExisting: CatalogPortAdapter },
        {
          // The model ids, asked by billing (a grant's model): in a fleet over the service transport.
          provide: CATALOG_MODELS,
          inject: [CatalogPortAdapter],
          useFactory: (pricing: CatalogPortAdapter): CatalogModelsPort => ({
            modelIdOf: (idOrAlias) => Promise.resolve(pricing.resolveModelId(idOrAlias)),
          }),
        },
        ModelRoutesAdapter,
        { provide: MODEL_ROUTES, useExisting: ModelRoutesAdapter },
      ],
      exports: [
        CatalogService,
        CATALOG_PORT,
        CATALOG_MODELS,
        MODEL_ROUTES,
        ...(options.source === 'remote' ? [] : [CATALOG_DOCUMENT]),
      ],
    };
  }
}
