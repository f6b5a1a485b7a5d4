import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  OFFLINE_LIMITS,
  REEL_FPS,
  REEL_RESOLUTIONS,
  SIMULATE_BEHAVIOURS,
  TONE_VOICES,
} from './offline-inputs';

/** The shipped catalog file, read as data: the generators' bounds must be the inputSchemas' bounds. */
const catalog = JSON.parse(readFileSync(join(__dirname, '../../../catalog/catalog/models.json'), 'utf8')) as {
  models: { id: string; inputSchema?: { properties: Record<string, Record<string, unknown>> } }[];
};
const propertiesOf = (id: string) => catalog.models.find((m) => m.id === id)!.inputSchema!.properties;

describe('offline inputs match the catalog inputSchemas', () => {
  it.each(['local/sketch', 'local/tone', 'local/reel'])('%s: simulate and delay_ms', (id) => {
    const p = propertiesOf(id);
    expect(p.simulate).toMatchObject({ enum: [...SIMULATE_BEHAVIOURS], default: 'success' });
    expect(p.delay_ms).toMatchObject(OFFLINE_LIMITS.delayMs);
  });

  it('local/sketch: width, height, num_images, seed', () => {
    const p = propertiesOf('local/sketch');
    expect(p.width).toMatchObject(OFFLINE_LIMITS.sketch.side);
    expect(p.height).toMatchObject(OFFLINE_LIMITS.sketch.side);
    expect(p.num_images).toMatchObject(OFFLINE_LIMITS.sketch.numImages);
    expect(p.seed).toMatchObject(OFFLINE_LIMITS.sketch.seed);
  });

  it('local/tone: text, voice, speed', () => {
    const p = propertiesOf('local/tone');
    expect(p.text!.maxLength).toBe(OFFLINE_LIMITS.tone.textMaxLength);
    expect(p.voice).toMatchObject({ enum: [...TONE_VOICES], default: OFFLINE_LIMITS.tone.voice });
    expect(p.speed).toMatchObject(OFFLINE_LIMITS.tone.speed);
  });

  it('local/reel: duration_seconds, resolution, fps', () => {
    const p = propertiesOf('local/reel');
    expect(p.duration_seconds).toMatchObject(OFFLINE_LIMITS.reel.durationSeconds);
    expect(p.resolution).toMatchObject({
      enum: [...REEL_RESOLUTIONS],
      default: OFFLINE_LIMITS.reel.resolution,
    });
    expect(p.fps).toMatchObject({ enum: [...REEL_FPS], default: OFFLINE_LIMITS.reel.fps });
  });
});
