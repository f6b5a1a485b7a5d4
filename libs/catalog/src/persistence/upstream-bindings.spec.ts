import { BusinessCode, endpointKey } from '@gen/contracts';
import { usageOfBound } from '../domain/usage-bound';
import { ModelRoutesAdapter } from '../adapters/model-routes.adapter';
import { CatalogPortAdapter } from '../adapters/catalog-port.adapter';
import { catalogFile, imageEntry } from '../testing/catalog-fixture';
import { CatalogLoadError } from './catalog-load-error';
import { CatalogService } from './catalog.service';
import { buildCatalog } from './load-catalog';

const upstream = (baseUrl: string, credentials: string[] = ['PICS_KEY']) => ({
  adapter: 'openai-images',
  upstreamModel: 'pics-1',
  credentials,
  settings: { baseUrl },
});

const upstreamImage = (overrides: Record<string, unknown> = {}) =>
  imageEntry({
    provider: upstream('https://pics.example/v1'),
    usageBound: { images: { input: 'count' } },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 100 },
        count: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
      },
    },
    ...overrides,
  });

const refusal = (entry: Record<string, unknown>): string => {
  try {
    buildCatalog(catalogFile(entry));
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogLoadError);
    return (error as Error).message;
  }
  throw new Error('the catalog was accepted');
};

describe('upstream bindings in the catalog', () => {
  it.each([
    [
      'an upstream media model without a usage bound',
      upstreamImage({ usageBound: undefined }),
      'catalog: model "test/image-1": usageBound is required for a image model of an upstream (the hold of a task)',
    ],
    [
      'a bound missing for a price the model has',
      upstreamImage({ usageBound: { seconds: 5 } }),
      'catalog: model "test/image-1": usageBound.images is required: the model has a perImage price',
    ],
    [
      'a bound on a field that is not a bounded integer',
      upstreamImage({ usageBound: { images: { input: 'prompt' } } }),
      'catalog: model "test/image-1": usageBound.images.input "prompt" must be an integer field of inputSchema with a maximum',
    ],
    [
      'a bound on an offline model',
      imageEntry({ usageBound: { images: 1 } }),
      'catalog: model "test/image-1": usageBound must be absent for an offline model: its usage is computed from the input',
    ],
    [
      'a fallback to an unknown adapter',
      upstreamImage({ fallbacks: [{ adapter: 'carrier-pigeon', upstreamModel: 'x' }] }),
      'catalog: model "test/image-1": fallbacks[0].adapter "carrier-pigeon" is not a known adapter (known: offline, openai-compatible, anthropic, gemini, openai-images, replicate)',
    ],
  ])('refuses %s', (_, entry, message) => {
    expect(refusal(entry)).toBe(message);
  });

  it('bounds usage from the input, the field maximum when absent, fixed quantities as given', () => {
    const schema = { properties: { count: { type: 'integer', maximum: 4 } } };
    expect(usageOfBound({ images: { input: 'count' } }, { count: 3 }, schema)).toEqual({ images: 3 });
    expect(usageOfBound({ images: { input: 'count' } }, {}, schema)).toEqual({ images: 4 });
    expect(
      usageOfBound({ seconds: 6.5, megapixels: { input: 'count', times: 1.5 } }, { count: 2 }, schema),
    ).toEqual({ milliseconds: 6500, pixels: 3_000_000 });
  });

  it('holds the bound at the account prices when a task is prepared', () => {
    const catalog = buildCatalog(catalogFile(upstreamImage()));
    const pricing = new CatalogPortAdapter(new CatalogService(catalog, { credential: () => 'k' }));
    expect(pricing.prepareTask('test/image-1', { prompt: 'a cat', count: 3 }, '1').estimate).toBe('0.012');
    expect(pricing.prepareTask('test/image-1', { prompt: 'a cat' }, '1').estimate).toBe('0.004');
  });

  it('is available while one binding is usable: credentials set and circuit closed, fallbacks in order', () => {
    const fallback = upstream('http://10.0.0.7:8000/v1', []);
    const catalog = buildCatalog(catalogFile(upstreamImage({ fallbacks: [fallback] })));
    const open = new Set<string>();
    const service = (key: string | undefined) =>
      new CatalogService(catalog, {
        credential: () => key,
        circuitOpen: (binding) => open.has(endpointKey(binding)),
      });
    expect(service(undefined).get('test/image-1').available).toBe(true); // the fallback needs no key
    open.add('openai-images http://10.0.0.7:8000/v1');
    expect(service(undefined).get('test/image-1').available).toBe(false);
    expect(service('k').get('test/image-1').available).toBe(true);
    open.add('openai-images https://pics.example/v1');
    expect(service('k').get('test/image-1').available).toBe(false);
    // Tripped circuits are a passing state: 50301 with Retry-After; missing credentials are not: 503.
    expect(() =>
      new CatalogPortAdapter(service('k')).prepareTask('test/image-1', { prompt: 'a cat' }, '1'),
    ).toThrow(
      expect.objectContaining({
        code: BusinessCode.TemporarilyUnavailable,
        messageId: 'model.unavailable',
        headers: { 'retry-after': '30' },
      }),
    );
    open.delete('openai-images http://10.0.0.7:8000/v1');
    open.delete('openai-images https://pics.example/v1');
    const unconfigured = buildCatalog(catalogFile(upstreamImage()));
    const refusing = new CatalogPortAdapter(
      new CatalogService(unconfigured, { credential: () => undefined }),
    );
    expect(() => refusing.prepareTask('test/image-1', { prompt: 'a cat' }, '1')).toThrow(
      expect.objectContaining({ code: BusinessCode.Unavailable, messageId: 'model.unavailable' }),
    );
  });

  it('routes a model to its binding then its fallbacks; unknown models have no route', () => {
    const fallback = upstream('http://10.0.0.7:8000/v1', []);
    const catalog = buildCatalog(catalogFile(upstreamImage({ fallbacks: [fallback] })));
    const routes = new ModelRoutesAdapter(new CatalogService(catalog, { credential: () => undefined }));
    expect(routes.routeFor('test/image-1')).toEqual({
      model: 'test/image-1',
      modality: 'image',
      bindings: [upstream('https://pics.example/v1'), fallback],
      mediaFields: [],
    });
    expect(routes.routeFor('nope/nope')).toBeNull();
  });
});
