import { DomainError } from '@gen/core';
import { CatalogService } from './catalog.service';
import { buildCatalog } from './load-catalog';
import { catalogFile, chatEntry, imageEntry } from '../testing/catalog-fixture';

const catalog = buildCatalog(
  catalogFile(
    imageEntry(),
    chatEntry(),
    imageEntry({
      id: 'other/video/v2',
      name: 'Moving pictures',
      description: 'Clips',
      modality: 'video',
      task: 'image-to-video',
      aliases: ['Clipper'],
      pricing: { perSecond: '0.05' },
    }),
    imageEntry({ id: 'test/old', enabled: false, aliases: [] }),
  ),
);
const env: Record<string, string | undefined> = {};
// As once text generation runs; the default (no text) is checked on its own below.
const service = new CatalogService(catalog, {
  credential: (name) => env[name],
  adapters: ['offline', 'openai-compatible'],
});
const ids = (items: { model: string }[]) => items.map((i) => i.model);

describe('CatalogService', () => {
  afterEach(() => delete env['ACME_API_KEY']);

  it('lists enabled models in catalog order, without schema and examples unless asked', () => {
    const items = service.list();
    expect(ids(items)).toEqual(['test/image-1', 'acme/talker/chat', 'other/video/v2']);
    expect(items[0]).not.toHaveProperty('inputSchema');
    expect(items[0]).not.toHaveProperty('examples');
    const full = service.list({ includeSchema: true, includeExamples: true });
    expect(full[0]!.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(full[0]!.examples).toEqual([{ input: { prompt: 'a cat' } }]);
    expect(ids(service.list({ includeDisabled: true }))).toContain('test/old');
  });

  it('filters by modality, provider and task (exact)', () => {
    expect(ids(service.list({ modality: 'text' }))).toEqual(['acme/talker/chat']);
    expect(ids(service.list({ provider: 'other' }))).toEqual(['other/video/v2']);
    expect(ids(service.list({ provider: 'othe' }))).toEqual([]);
    expect(ids(service.list({ task: 'text-to-image' }))).toEqual(['test/image-1']);
    expect(ids(service.list({ modality: 'image', task: 'chat' }))).toEqual([]);
    expect(() => service.list({ modality: 'smell' })).toThrow(DomainError);
  });

  it('searches id, name, description and aliases, case-insensitively, at most 128 characters', () => {
    expect(ids(service.list({ search: 'TALKER' }))).toEqual(['acme/talker/chat']);
    expect(ids(service.list({ search: 'moving' }))).toEqual(['other/video/v2']);
    expect(ids(service.list({ search: 'clips' }))).toEqual(['other/video/v2']);
    expect(ids(service.list({ search: 'clipper' }))).toEqual(['other/video/v2']);
    expect(ids(service.list({ search: 'video/v' }))).toEqual(['other/video/v2']);
    expect(ids(service.list({ search: 'nothing-like-it' }))).toEqual([]);
    expect(ids(service.list({ search: 'x'.repeat(128) }))).toEqual([]);
    try {
      service.list({ search: 'x'.repeat(129) });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toMatchObject({ code: 400, messageId: 'model.search_too_long', params: { max: 128 } });
    }
  });

  it('gets one model by id with slashes or by alias, always with its schema; 404 otherwise', () => {
    const byId = service.get('other/video/v2');
    expect(byId.model).toBe('other/video/v2');
    expect(byId.inputSchema).toBeDefined();
    expect(byId.examples).toHaveLength(1);
    expect(service.get('Clipper').model).toBe('other/video/v2');
    expect(service.get('img').model).toBe('test/image-1');
    expect(() => service.get('clipper')).toThrow(DomainError); // exact, case-sensitive
    try {
      service.get('other/video');
      throw new Error('found');
    } catch (error) {
      expect(error).toMatchObject({
        code: 404,
        messageId: 'model.not_found',
        params: { model: 'other/video' },
      });
    }
  });

  it('prices records for the account group, exactly', () => {
    expect(service.get('test/image-1', { multiplier: '0.85' }).pricing).toEqual({
      currency: 'USD',
      perImage: '0.0034',
    });
    expect(service.get('acme/talker/chat', { multiplier: '1.2' }).pricing).toEqual({
      currency: 'USD',
      perMillionInputTokens: '1.2',
      perMillionCachedInputTokens: '0.12',
      perMillionOutputTokens: '2.4',
    });
    expect(service.list({ modality: 'video' }, { multiplier: 1_100_000_000n })[0]!.pricing).toEqual({
      currency: 'USD',
      perSecond: '0.055',
    });
  });

  it('marks a text model available like any other once its credentials are set', () => {
    const keyed = new CatalogService(catalog, { credential: () => 'sk-test' });
    expect(keyed.get('acme/talker/chat').available).toBe(true);
    expect(keyed.list({ modality: 'text' }).map((m) => m.available)).toEqual([true]);
  });

  it('marks a model unavailable until the credentials of its binding are configured', () => {
    expect(service.get('acme/talker/chat').available).toBe(false);
    env['ACME_API_KEY'] = '   ';
    expect(service.get('acme/talker/chat').available).toBe(false);
    env['ACME_API_KEY'] = 'sk-test';
    expect(service.get('acme/talker/chat').available).toBe(true);
    expect(service.get('test/image-1').available).toBe(true); // no credentials needed
    const tripped = new CatalogService(catalog, {
      credential: () => 'k',
      circuitOpen: () => true,
    });
    expect(tripped.get('test/image-1').available).toBe(false);
  });

  it('maps to the OpenAI model list: chat details on chat models, no prices', () => {
    const list = service.openAiList();
    expect(list.object).toBe('list');
    expect(list.data.map((m) => m.id)).toEqual(['test/image-1', 'acme/talker/chat', 'other/video/v2']);
    expect(list.data[0]).toEqual({
      id: 'test/image-1',
      object: 'model',
      created: Date.UTC(2026, 1, 1) / 1000,
      owned_by: 'test',
      modality: 'image',
      task: 'text-to-image',
      available: true,
    });
    expect(service.openAiList({ modality: 'text' }).data).toEqual([
      {
        id: 'acme/talker/chat',
        object: 'model',
        created: Date.UTC(2026, 1, 1) / 1000,
        owned_by: 'acme',
        modality: 'text',
        task: 'chat',
        available: false,
        context_length: 8192,
        max_output_tokens: 2048,
        supported_parameters: [
          'max_tokens',
          'temperature',
          'top_k',
          'stop',
          'reasoning_effort',
          'tools',
          'tool_choice',
          'parallel_tool_calls',
          'response_format',
        ],
      },
    ]);
    expect(JSON.stringify(list)).not.toContain('price');
  });

  it('validates an input by id or alias: the catalog id, normalized input, stable fingerprint', () => {
    const a = service.validateInput('img', { width: 640, prompt: 'x' });
    const b = service.validateInput('test/image-1', { prompt: 'x', style: 'ink', width: 640 });
    expect(a.model).toBe('test/image-1');
    expect(a.input).toEqual({ prompt: 'x', style: 'ink', width: 640 });
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(service.validateInput('img', { prompt: 'x', width: 648 }).fingerprint).not.toBe(a.fingerprint);
    expect(() => service.validateInput('nope/model', {})).toThrow(DomainError);
  });
});
