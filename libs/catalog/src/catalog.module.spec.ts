import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogModule } from './catalog.module';
import { CatalogService } from './persistence/catalog.service';
import { catalogFile, imageEntry } from './testing/catalog-fixture';

describe('CatalogModule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-module-'));

  it('loads the configured file at start and provides the CatalogService', async () => {
    const file = join(dir, 'models.json');
    writeFileSync(file, JSON.stringify(catalogFile()));
    const app = await NestFactory.createApplicationContext(
      CatalogModule.forRoot({
        file,
        availability: {
          credential: () => 'key',
          adapters: ['offline', 'openai-compatible'],
        },
      }),
      { logger: false },
    );
    try {
      const service = app.get(CatalogService);
      expect(service.get('acme/talker/chat').available).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with an invalid catalog, naming the model and the field', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(catalogFile(imageEntry({ pricing: { perImage: '1.5.0' } }))));
    // The file is read when the module is defined, before Nest builds anything.
    expect(() => CatalogModule.forRoot({ file })).toThrow(
      'catalog: model "test/image-1": pricing.perImage must be a USD amount',
    );
  });
});
