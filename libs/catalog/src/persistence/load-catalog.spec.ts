import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogFile, chatEntry, imageEntry } from '../testing/catalog-fixture';
import { CatalogLoadError } from './catalog-load-error';
import { buildCatalog, loadCatalogFile } from './load-catalog';

const refusal = (data: unknown): CatalogLoadError => {
  try {
    buildCatalog(data);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogLoadError);
    return error as CatalogLoadError;
  }
  throw new Error('the catalog was accepted');
};

describe('catalog loader', () => {
  it('loads a valid file: ids with slashes, aliases, a chat schema built from the text block', () => {
    const catalog = buildCatalog(catalogFile());
    expect(catalog.models.map((m) => m.id)).toEqual(['test/image-1', 'acme/talker/chat']);
    expect(catalog.find('img')?.id).toBe('test/image-1');
    const chat = catalog.find('acme/talker/chat')!;
    expect(chat.provider).toBe('acme');
    expect(chat.created).toBe(Date.UTC(2026, 1, 1) / 1000);
    expect(chat.supportedParameters).toEqual([
      'max_tokens',
      'temperature',
      'top_k',
      'stop',
      'reasoning_effort',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'response_format',
    ]);
  });

  it.each([
    [
      'a price that is not a USD amount',
      imageEntry({ pricing: { perImage: 0.004 } }),
      'catalog: model "test/image-1": pricing.perImage must be a USD amount (a decimal string such as "0.002", at most 9 decimals)',
    ],
    [
      'a price with too many decimals',
      imageEntry({ pricing: { perImage: '0.0000000001' } }),
      'catalog: model "test/image-1": pricing.perImage must be a USD amount (a decimal string such as "0.002", at most 9 decimals)',
    ],
    [
      'a missing field',
      imageEntry({ enabled: undefined }),
      'catalog: model "test/image-1": enabled is required',
    ],
    [
      'an unknown field',
      imageEntry({ colour: 'red' }),
      'catalog: model "test/image-1": colour is not a known field',
    ],
    [
      'a bad modality',
      imageEntry({ modality: 'smell' }),
      'catalog: model "test/image-1": modality must be one of image, video, audio, text',
    ],
    [
      'a bad nested field',
      chatEntry({ text: { ...(chatEntry()['text'] as object), tools: 'yes' } }),
      'catalog: model "acme/talker/chat": text.tools must be of type boolean',
    ],
    [
      'a bad example shape',
      imageEntry({ examples: [{ input: { prompt: 'x' } }, { prompt: 'y' }] }),
      'catalog: model "test/image-1": examples[1].input is required',
    ],
    [
      'no example',
      imageEntry({ examples: [] }),
      'catalog: model "test/image-1": examples must be a list of at least one example',
    ],
    [
      'a bad id (named by position)',
      imageEntry({ id: 'no-slash' }),
      'catalog: models[0]: id must be a model id such as publisher/model (letters, digits, ".", "_", "-" between slashes)',
    ],
  ])('refuses %s, naming the model and the field', (_what, entry, message) => {
    expect(refusal(catalogFile(entry)).message).toBe(message);
  });

  it('refuses a file of the wrong version or shape', () => {
    expect(refusal({ version: 2, models: [] }).message).toBe('catalog: version must be the number 1');
    expect(refusal({ version: 1 }).message).toBe('catalog: models is required');
    expect(refusal([]).message).toBe('catalog: the file must be of type object');
  });

  it('refuses a duplicate id', () => {
    const error = refusal(catalogFile(imageEntry(), chatEntry(), imageEntry({ aliases: [] })));
    expect(error.message).toBe('catalog: model "test/image-1": id is used twice (models[0] and models[2])');
    expect(error.modelId).toBe('test/image-1');
    expect(error.field).toBe('id');
  });

  it('refuses alias collisions: with another alias, with another id, with its own id', () => {
    expect(refusal(catalogFile(imageEntry(), chatEntry({ aliases: ['img'] }))).message).toBe(
      'catalog: model "acme/talker/chat": aliases "img" is already an alias of model "test/image-1"',
    );
    expect(refusal(catalogFile(imageEntry({ aliases: ['acme/talker/chat'] }), chatEntry())).message).toBe(
      'catalog: model "test/image-1": aliases "acme/talker/chat" is the id of another model',
    );
    expect(refusal(catalogFile(imageEntry({ aliases: ['test/image-1'] }))).message).toBe(
      'catalog: model "test/image-1": aliases "test/image-1" is the model\'s own id',
    );
  });

  it('refuses an invalid example at load, naming the model, the example and the field', () => {
    const examples = [{ input: { prompt: 'ok' } }, { input: { prompt: 'big', width: 4096 } }];
    expect(refusal(catalogFile(imageEntry({ examples }))).message).toBe(
      'catalog: model "test/image-1": examples[1].input is invalid: The field width must be at most 2048.',
    );
    const unknown = [{ input: { prompt: 'ok', colour: 'red' } }];
    expect(refusal(catalogFile(imageEntry({ examples: unknown }))).message).toBe(
      'catalog: model "test/image-1": examples[0].input is invalid: Unknown field colour.',
    );
    const chat = [{ input: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 4096 } }];
    expect(refusal(catalogFile(chatEntry({ examples: chat }))).message).toBe(
      'catalog: model "acme/talker/chat": examples[0].input is invalid: The field max_tokens must be at most 2048.',
    );
  });

  it('refuses an unknown adapter', () => {
    const provider = { adapter: 'carrier-pigeon', upstreamModel: 'x' };
    expect(refusal(catalogFile(imageEntry({ provider }))).message).toBe(
      'catalog: model "test/image-1": provider.adapter "carrier-pigeon" is not a known adapter (known: offline, openai-compatible, anthropic, gemini, openai-images, replicate)',
    );
    expect(() =>
      buildCatalog(catalogFile(imageEntry({ provider, usageBound: { images: 1 } })), {
        adapters: ['carrier-pigeon'],
      }),
    ).not.toThrow();
  });

  it.each([
    [
      'a task of another modality',
      imageEntry({ task: 'chat' }),
      'catalog: model "test/image-1": task "chat" is not a task of modality image (one of text-to-image, image-to-image, image-edit, image-upscale)',
    ],
    [
      'text prices on a media model',
      imageEntry({ pricing: { perMillionInputTokens: '1' } }),
      'catalog: model "test/image-1": pricing.perMillionInputTokens is not a price of a image model (use perImage, perSecond, perMegapixel)',
    ],
    [
      'a media model without a price',
      imageEntry({ pricing: {} }),
      'catalog: model "test/image-1": pricing needs at least one of perImage, perSecond, perMegapixel',
    ],
    [
      'a text model without its cached-input price',
      chatEntry({ pricing: { perMillionInputTokens: '1', perMillionOutputTokens: '2' } }),
      'catalog: model "acme/talker/chat": pricing.perMillionCachedInputTokens is required for a text model',
    ],
    [
      'a text model id not of the form publisher/model/chat',
      chatEntry({ id: 'acme/talker' }),
      'catalog: model "acme/talker": id must have the form <publisher>/<model>/chat for a text model',
    ],
    [
      'a media model id ending with /chat',
      imageEntry({ id: 'test/image/chat' }),
      'catalog: model "test/image/chat": id ends with /chat, which only text models may',
    ],
    [
      'a media model without inputSchema',
      imageEntry({ inputSchema: undefined }),
      'catalog: model "test/image-1": inputSchema is required for a image model',
    ],
    [
      'a text model with its own inputSchema',
      chatEntry({ inputSchema: { type: 'object' } }),
      'catalog: model "acme/talker/chat": inputSchema must be absent for a text model: it is built from text',
    ],
    [
      'a default max_tokens above the output limit',
      chatEntry({ text: { ...(chatEntry()['text'] as object), defaultMaxTokens: 4096 } }),
      'catalog: model "acme/talker/chat": text.defaultMaxTokens must be at most text.maxOutputTokens (2048)',
    ],
    [
      'a parameter default outside its bounds',
      chatEntry({
        text: {
          ...(chatEntry()['text'] as object),
          parameters: { temperature: { minimum: 0, maximum: 1, default: 2 } },
        },
      }),
      'catalog: model "acme/talker/chat": text.parameters.temperature.default must be between 0 and 1',
    ],
    [
      'an input schema that lets unknown fields through',
      imageEntry({
        inputSchema: { type: 'object', properties: { prompt: { type: 'string' } } },
        examples: [{ input: { prompt: 'x' } }],
      }),
      'catalog: model "test/image-1": inputSchema must close every object: the schema at / lists properties without "additionalProperties" (set it to false)',
    ],
    [
      'a nested open object',
      imageEntry({
        inputSchema: {
          type: 'object',
          additionalProperties: false,
          properties: { o: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        examples: [{ input: {} }],
      }),
      'catalog: model "test/image-1": inputSchema must close every object: the schema at /properties/o lists properties without "additionalProperties" (set it to false)',
    ],
  ])('refuses %s', (_what, entry, message) => {
    expect(refusal(catalogFile(entry)).message).toBe(message);
  });

  it('refuses an input schema that does not compile', () => {
    const inputSchema = { type: 'object', additionalProperties: false, properties: { a: { type: 'strin' } } };
    expect(refusal(catalogFile(imageEntry({ inputSchema }))).message).toMatch(
      /^catalog: model "test\/image-1": inputSchema is not a valid JSON Schema: /,
    );
  });

  it('reads the file and names it when it is missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(catalogFile()));
    expect(loadCatalogFile(good).models).toHaveLength(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1,');
    expect(() => loadCatalogFile(bad)).toThrow(`catalog: ${bad} is not valid JSON: `);
    expect(() => loadCatalogFile(join(dir, 'none.json'))).toThrow(
      `catalog: cannot read ${join(dir, 'none.json')}: `,
    );
  });
});
