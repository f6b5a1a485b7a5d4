import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { isMediaUri } from '../domain/media-fields';
import { ModelRoutesAdapter } from '../adapters/model-routes.adapter';
import { CatalogPortAdapter } from '../adapters/catalog-port.adapter';
import { catalogFile, imageEntry } from '../testing/catalog-fixture';
import { CatalogLoadError } from './catalog-load-error';
import { CatalogService } from './catalog.service';
import { catalogFilePath } from './catalog-file-path';
import { buildCatalog, loadCatalogFile } from './load-catalog';

const FILE = 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB';

/** An image model with an image and an audio media field. */
const mediaEntry = (properties: Record<string, unknown> = {}, examples = [{ input: { prompt: 'x' } }]) =>
  imageEntry({
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 100 },
        image: { type: 'string', format: 'media-uri', 'x-media': 'image' },
        voice: { type: 'string', format: 'media-uri', 'x-media': 'audio', maxLength: 500 },
        ...properties,
      },
    },
    examples,
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

const service = (entry = mediaEntry()) =>
  new CatalogService(buildCatalog(catalogFile(entry)), { credential: () => undefined });

describe('media fields of an inputSchema ("format": "media-uri" with "x-media")', () => {
  it('accepts service:// file URIs and https URLs on the default port, nothing else', () => {
    for (const good of [
      FILE,
      'https://cdn.example.com/a/b.png?x=1#y',
      'https://cdn.example.com:443/a.png',
      'https://203.0.113.7/a.png',
      'https://127.0.0.1/a.png', // syntax only: the runner's guard judges the address
    ]) {
      expect({ good, ok: isMediaUri(good) }).toEqual({ good, ok: true });
    }
    for (const bad of [
      'http://cdn.example.com/a.png',
      'https://cdn.example.com:8443/a.png',
      'https://user:pass@cdn.example.com/a.png',
      'https://:@cdn.example.com/a.png',
      'https://cdn.example.com/a b.png',
      `https://cdn.example.com/${'a'.repeat(2040)}`,
      'service://files/',
      'service://files/abc',
      'service://assets/ast_1',
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
      'fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB',
      '',
    ]) {
      expect({ bad, ok: isMediaUri(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('validates the value at the edge: 400 naming the field and what it takes', () => {
    const catalog = service();
    expect(catalog.validateInput('test/image-1', { prompt: 'x', image: FILE }).input).toMatchObject({
      image: FILE,
    });
    let error: unknown;
    try {
      catalog.validateInput('test/image-1', { prompt: 'x', image: 'http://cdn.example.com/a.png' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: BusinessCode.InvalidRequest,
      messageId: 'input.not_media_uri',
      params: { field: 'input.image' },
    });
  });

  it('lists the media fields of the model: routes give them to the runner, prepared tasks their values', () => {
    const catalog = service();
    expect(new ModelRoutesAdapter(catalog).routeFor('test/image-1')?.mediaFields).toEqual([
      { field: 'image', kind: 'image' },
      { field: 'voice', kind: 'audio' },
    ]);
    const pricing = new CatalogPortAdapter(catalog);
    expect(pricing.prepareTask('test/image-1', { prompt: 'x' }, '1').mediaInputs).toEqual([]);
    expect(
      pricing.prepareTask('test/image-1', { prompt: 'x', voice: 'https://a.example/v.wav', image: FILE }, '1')
        .mediaInputs,
    ).toEqual([
      { field: 'image', kind: 'image', value: FILE },
      { field: 'voice', kind: 'audio', value: 'https://a.example/v.wav' },
    ]);
    // A model without media fields has none.
    const plain = new CatalogService(buildCatalog(catalogFile(imageEntry())), {
      credential: () => undefined,
    });
    expect(new ModelRoutesAdapter(plain).routeFor('test/image-1')?.mediaFields).toEqual([]);
  });

  it('is declared on local/sketch (image) in the shipped catalog', () => {
    const shipped = new CatalogService(loadCatalogFile(catalogFilePath({})), { credential: () => undefined });
    expect(new ModelRoutesAdapter(shipped).routeFor('local/sketch')?.mediaFields).toEqual([
      { field: 'image', kind: 'image' },
    ]);
    expect(new ModelRoutesAdapter(shipped).routeFor('local/reel')?.mediaFields).toEqual([]);
  });

  it.each([
    [
      'a kind that is not image, audio or video',
      mediaEntry({ image: { type: 'string', format: 'media-uri', 'x-media': 'picture' } }),
      'catalog: model "test/image-1": inputSchema.properties.image.x-media must be one of image, audio, video',
    ],
    [
      'the format without a kind',
      mediaEntry({ image: { type: 'string', format: 'media-uri' } }),
      'catalog: model "test/image-1": inputSchema.properties.image.x-media must be one of image, audio, video',
    ],
    [
      'a kind without the format',
      mediaEntry({ image: { type: 'string', 'x-media': 'image' } }),
      'catalog: model "test/image-1": inputSchema.properties.image.format must be "media-uri" on a media field',
    ],
    [
      'a media field that is not a string',
      mediaEntry({ image: { type: 'array', format: 'media-uri', 'x-media': 'image' } }),
      'catalog: model "test/image-1": inputSchema.properties.image.type must be "string" on a media field',
    ],
    [
      'a media field below the top level',
      mediaEntry({
        refs: {
          type: 'array',
          items: { type: 'string', format: 'media-uri', 'x-media': 'image' },
        },
      }),
      'catalog: model "test/image-1": inputSchema.properties.refs.items marks a media field, but only a top-level property may take media ("format": "media-uri" with "x-media")',
    ],
  ])('refuses %s', (_what, entry, message) => {
    expect(refusal(entry)).toBe(message);
  });

  it('refuses an example whose media field is not a media URI, naming it', () => {
    expect(refusal(mediaEntry({}, [{ input: { prompt: 'x', image: 'ftp://a/b.png' } }] as never))).toBe(
      'catalog: model "test/image-1": examples[0].input is invalid: The field image must be the service:// URI of an uploaded file (service://files/fil_...) or an https:// URL.',
    );
  });

  it('takes no marker from data (an enum value) or from a property that happens to be named x-media', () => {
    const entry = mediaEntry({
      meta: {
        type: 'object',
        additionalProperties: false,
        properties: { format: { type: 'string' }, 'x-media': { type: 'string' } },
        enum: [{ format: 'media-uri', 'x-media': 'image' }],
      },
    });
    const catalog = new CatalogService(buildCatalog(catalogFile(entry)), { credential: () => undefined });
    expect(new ModelRoutesAdapter(catalog).routeFor('test/image-1')?.mediaFields).toEqual([
      { field: 'image', kind: 'image' },
      { field: 'voice', kind: 'audio' },
    ]);
  });
});
