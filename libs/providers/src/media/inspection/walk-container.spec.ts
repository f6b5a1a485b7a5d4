import fc from 'fast-check';
import { editedSample } from '../../testing/edited-bytes';
import {
  sampleAvi,
  sampleGif,
  sampleJpeg,
  sampleMp3,
  sampleMp3Xing,
  sampleMp4,
  samplePng,
  sampleWav,
  sampleWebp,
} from '../../testing/media-samples';
import { formatOf, walkContainer } from './walk-container';

/** The one walk of uploads and upstream outputs alike, on hostile input (probeMedia's spec covers the facts,
 * inspectMedia's in @gen/media the WebM walk). */
describe('walkContainer', () => {
  const samples = [
    samplePng(5, 4),
    sampleJpeg(8, 8),
    sampleGif(3, 3),
    sampleWebp('VP8X', 4, 4),
    sampleWav(0.01, 8000, 1),
    sampleMp3(3, true),
    sampleMp3Xing(9, 1),
    sampleAvi(4, 4, 2, 2),
    sampleMp4({ timescale: 10, duration: 20, video: { width: 4, height: 4 } }),
  ];
  /** Throws unless the walk ends within the bytes when it reads them as well-formed. */
  const sane = (bytes: Buffer): void => {
    const walk = walkContainer(bytes);
    if (walk.ok && !(walk.end >= 0 && walk.end <= bytes.length)) throw new Error(`end ${walk.end}`);
  };

  it('ends every sample at its last byte, as the format its magic numbers name', () => {
    for (const sample of samples) {
      const walk = walkContainer(sample);
      expect(walk.ok && walk.end).toBe(sample.length);
      expect(formatOf(sample)).not.toBeNull();
    }
  });

  it('never throws on random bytes, behind any magic number, for any format asked', () => {
    const magic = fc.constantFrom(...samples.map((s) => s.subarray(0, 12)), Buffer.alloc(0));
    const format = fc.constantFrom(undefined, ...samples.map((s) => formatOf(s)));
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 600 }), format, (head, tail, as) => {
        const bytes = Buffer.concat([head, tail]);
        sane(bytes);
        const walk = walkContainer(bytes, as ?? null);
        if (walk.ok && walk.end > bytes.length) throw new Error('past the end');
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on valid files with bytes overwritten, inserted or cut', () => {
    fc.assert(fc.property(editedSample(samples), sane), { numRuns: 5000 });
  });
});
