import { CatalogService } from './catalog.service';
import { catalogFilePath } from './catalog-file-path';
import { loadCatalogFile } from './load-catalog';

const catalog = loadCatalogFile(catalogFilePath({}));
const OFFLINE = [
  ['local/echo/chat', 'text', 'chat'],
  ['local/sketch', 'image', 'text-to-image'],
  ['local/tone', 'audio', 'text-to-speech'],
  ['local/reel', 'video', 'text-to-video'],
] as const;
const SIMULATE = ['success', 'upstream_failed', 'content_rejected', 'asset_unavailable', 'asset_pending'];

describe('the shipped catalog (libs/catalog/catalog/models.json)', () => {
  it('is found from the sources and honours CATALOG_FILE', () => {
    expect(catalogFilePath({})).toMatch(/libs\/catalog\/catalog\/models\.json$/);
    expect(catalogFilePath({ CATALOG_FILE: '/etc/gen/models.json' })).toBe('/etc/gen/models.json');
  });

  it.each(OFFLINE)(
    'has the offline model %s (%s / %s), enabled, and available with no credentials',
    (id, modality, task) => {
      const service = new CatalogService(catalog, { credential: () => undefined });
      const record = service.get(id);
      expect(record).toMatchObject({
        model: id,
        modality,
        task,
        enabled: true,
        available: true,
        provider: 'local',
      });
      const prices = Object.entries(record.pricing).filter(([k]) => k !== 'currency');
      expect(prices.length).toBeGreaterThan(0);
      for (const [, price] of prices) expect(Number(price)).toBeGreaterThan(0); // non-zero: billing is exercised
    },
  );

  it.each(OFFLINE.filter(([, modality]) => modality !== 'text'))(
    '%s declares the test behaviours simulate and delay_ms in its inputSchema',
    (id) => {
      const properties = catalog.find(id)!.inputSchema['properties'] as Record<
        string,
        Record<string, unknown>
      >;
      expect(properties['simulate']).toMatchObject({ type: 'string', enum: SIMULATE, default: 'success' });
      expect(properties['delay_ms']).toMatchObject({ type: 'integer', minimum: 0, maximum: 600000 });
    },
  );

  it('local/echo/chat accepts tools and streams through the chat schema', () => {
    const echo = catalog.find('local/echo/chat')!;
    expect(echo.text?.tools).toBe(true);
    expect(echo.supportedParameters).toEqual(
      expect.arrayContaining(['max_tokens', 'tools', 'tool_choice', 'stop']),
    );
  });

  it('has every model example valid against its schema', () => {
    for (const model of catalog.models) {
      expect(model.examples.length).toBeGreaterThan(0);
      for (const example of model.examples) {
        expect({ id: model.id, valid: model.validateInput(structuredClone(example.input)) }).toEqual({
          id: model.id,
          valid: true,
        });
      }
    }
  });

  it('binds real providers, unavailable until their credentials are configured and the runner has their adapter', () => {
    const adapters = new Map(catalog.models.map((m) => [m.binding.adapter, m]));
    for (const adapter of ['openai-compatible', 'anthropic', 'gemini', 'replicate']) {
      const model = adapters.get(adapter)!;
      expect(model.binding.credentials.length).toBeGreaterThan(0);
      const without = new CatalogService(catalog, { credential: () => undefined });
      expect({ adapter, available: without.get(model.id).available }).toEqual({ adapter, available: false });
      const env = Object.fromEntries(model.binding.credentials.map((c) => [c, 'secret']));
      const withKeys = new CatalogService(catalog, {
        credential: (name) => env[name],
        adapters: ['offline', adapter],
      });
      expect({ adapter, available: withKeys.get(model.id).available }).toEqual({ adapter, available: true });
      // Credentials are all a model of an adapter the service has needs.
      const today = new CatalogService(catalog, { credential: (name) => env[name] });
      expect({ adapter, available: today.get(model.id).available }).toEqual({ adapter, available: true });
    }
  });
});
