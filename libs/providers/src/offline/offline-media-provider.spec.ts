import { decodePng } from '../testing/png-reader';
import { OfflineMediaProvider, type Sleep } from './offline-media-provider';

function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  return { waits, sleep };
}

describe('OfflineMediaProvider', () => {
  it('generates num_images PNGs for local/sketch and bills images and megapixels', async () => {
    const provider = new OfflineMediaProvider(recordingSleep().sleep);
    const result = await provider.generate('local/sketch', {
      prompt: 'a cat',
      width: 64,
      height: 128,
      num_images: 3,
    });
    if (result.status !== 'succeeded') throw new Error('expected success');
    expect(result.outputs).toHaveLength(3);
    expect(result.outputs.map((o) => [o.contentType, o.width, o.height])).toEqual(
      Array(3).fill(['image/png', 64, 128]),
    );
    expect(decodePng(result.outputs[2]!.bytes).height).toBe(128);
    expect(new Set(result.outputs.map((o) => o.bytes.toString('base64'))).size).toBe(3);
    expect(result.usage).toEqual({ images: 3, megapixels: 0.024576 });
    expect(result.assets).toBe('ready');
  });

  it('generates a WAV for local/tone and a video for local/reel, billed by the second', async () => {
    const provider = new OfflineMediaProvider(recordingSleep().sleep);
    const tone = await provider.generate('local/tone', { text: 'Hello, and welcome.' });
    const reel = await provider.generate('local/reel', { prompt: 'waves', duration_seconds: 4 });
    expect(tone).toMatchObject({ status: 'succeeded', usage: { seconds: 1.14 } });
    expect(reel).toMatchObject({ status: 'succeeded', usage: { seconds: 4 } });
    if (tone.status !== 'succeeded' || reel.status !== 'succeeded') throw new Error('expected success');
    expect(tone.outputs[0]).toMatchObject({
      contentType: 'audio/wav',
      durationSeconds: 1.14,
      sampleRate: 16000,
    });
    expect(reel.outputs[0]).toMatchObject({
      contentType: 'video/x-msvideo',
      durationSeconds: 4,
      width: 320,
      height: 240,
      fps: 12,
      frames: 48,
    });
    expect(tone.outputs[0]).not.toHaveProperty('usage');
  });

  it('honours delay_ms through the injected sleep, before the outcome, and does not sleep for 0', async () => {
    const { sleep, waits } = recordingSleep();
    const provider = new OfflineMediaProvider(sleep);
    await provider.generate('local/sketch', { prompt: 'slow', width: 64, height: 64, delay_ms: 600_000 });
    await provider.generate('local/tone', { text: 'no', simulate: 'upstream_failed', delay_ms: 250 });
    await provider.generate('local/reel', { prompt: 'now', duration_seconds: 1 });
    expect(waits).toEqual([600_000, 250]);
  });

  it('waits for the sleep to finish before answering', async () => {
    let release!: () => void;
    const provider = new OfflineMediaProvider(() => new Promise<void>((resolve) => (release = resolve)));
    let done = false;
    const pending = provider.generate('local/tone', { text: 'wait', delay_ms: 10 }).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    release();
    await pending;
    expect(done).toBe(true);
  });

  it.each(['upstream_failed', 'content_rejected'] as const)(
    'fails with errorCode %s, uncharged',
    async (simulate) => {
      const provider = new OfflineMediaProvider(recordingSleep().sleep);
      for (const model of ['local/sketch', 'local/reel'] as const) {
        const result = await provider.generate(model, { prompt: 'x', simulate });
        expect(result).toEqual({ status: 'failed', errorCode: simulate, charged: false });
      }
      const tone = await provider.generate('local/tone', { text: 'x', simulate });
      expect(tone).toEqual({ status: 'failed', errorCode: simulate, charged: false });
    },
  );

  it.each([
    ['asset_pending', 'pending'],
    ['asset_unavailable', 'unavailable'],
    ['success', 'ready'],
  ] as const)('simulate %s succeeds with files and assets %s', async (simulate, assets) => {
    const provider = new OfflineMediaProvider(recordingSleep().sleep);
    const result = await provider.generate('local/reel', { prompt: 'x', duration_seconds: 1, simulate });
    expect(result).toMatchObject({ status: 'succeeded', assets, usage: { seconds: 1 } });
  });
});
