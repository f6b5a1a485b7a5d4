import fc from 'fast-check';
import { editedSample } from '../testing/edited-bytes';
import { renderReel } from '../offline/render-reel';
import { renderSketch } from '../offline/render-sketch';
import { renderTone } from '../offline/render-tone';
import {
  MP3_FRAME_SAMPLES,
  MP3_SAMPLE_RATE,
  sampleAvi,
  sampleGif,
  sampleJpeg,
  sampleMp3,
  sampleMp3Xing,
  sampleMp4,
  samplePng,
  sampleWav,
  sampleWebp,
} from '../testing/media-samples';
import { probeMedia } from './probe-media';

const mp3Seconds = (frames: number): number => (frames * MP3_FRAME_SAMPLES) / MP3_SAMPLE_RATE;

describe('probeMedia', () => {
  it('reads the size of PNG, JPEG (baseline and progressive), GIF and the three kinds of WebP', () => {
    expect(probeMedia(samplePng(37, 21))).toEqual({ mime: 'image/png', width: 37, height: 21 });
    expect(probeMedia(sampleJpeg(640, 480))).toEqual({ mime: 'image/jpeg', width: 640, height: 480 });
    expect(probeMedia(sampleJpeg(301, 7, 0xc2))).toEqual({ mime: 'image/jpeg', width: 301, height: 7 });
    expect(probeMedia(sampleGif(300, 2))).toEqual({ mime: 'image/gif', width: 300, height: 2 });
    expect(probeMedia(sampleWebp('VP8 ', 1024, 768))).toEqual({
      mime: 'image/webp',
      width: 1024,
      height: 768,
    });
    expect(probeMedia(sampleWebp('VP8L', 16383, 1))).toEqual({ mime: 'image/webp', width: 16383, height: 1 });
    expect(probeMedia(sampleWebp('VP8X', 20000, 3))).toEqual({ mime: 'image/webp', width: 20000, height: 3 });
  });

  it('measures WAV as data bytes / byte rate, whatever chunks come between fmt and data', () => {
    expect(probeMedia(sampleWav(1.5, 48_000, 2))).toEqual({ mime: 'audio/wav', durationSeconds: 1.5 });
    expect(probeMedia(sampleWav(0.25, 8_000, 1))).toEqual({ mime: 'audio/wav', durationSeconds: 0.25 });
  });

  it('measures MP3 by its frames, or by the Xing frame count when the first frame has one', () => {
    expect(probeMedia(sampleMp3(100))).toEqual({ mime: 'audio/mpeg', durationSeconds: mp3Seconds(100) });
    expect(probeMedia(sampleMp3(38, true))).toEqual({ mime: 'audio/mpeg', durationSeconds: mp3Seconds(38) });
    // The Xing header's count wins over the frames present (a VBR file's frames differ in size).
    expect(probeMedia(sampleMp3Xing(500, 3))).toEqual({
      mime: 'audio/mpeg',
      durationSeconds: mp3Seconds(500),
    });
    const cut = sampleMp3(10);
    expect(probeMedia(cut.subarray(0, cut.length - 100))).toBeNull();
    expect(probeMedia(Buffer.concat([sampleMp3(10), Buffer.from('trailing junk')]))).toBeNull();
  });

  it('reads AVI size from avih and the exact duration and frame rate from the video stream header', () => {
    // 6 fps: avih says 166667 us a frame, so only strh's length x scale / rate gives exactly 3 s.
    expect(probeMedia(sampleAvi(64, 36, 6, 18))).toEqual({
      mime: 'video/x-msvideo',
      width: 64,
      height: 36,
      durationSeconds: 3,
      fps: 6,
    });
  });

  it('reads MP4/MOV duration from mvhd and the size from the video track, in either box order', () => {
    const video = { width: 1920, height: 1080 };
    const facts = { mime: 'video/mp4', width: 1920, height: 1080, durationSeconds: 5.5 };
    expect(probeMedia(sampleMp4({ timescale: 1000, duration: 5500, video }))).toEqual(facts);
    expect(probeMedia(sampleMp4({ timescale: 1000, duration: 5500, video, moovLast: true }))).toEqual(facts);
    expect(probeMedia(sampleMp4({ timescale: 90_000, duration: 495_000, video, version1: true }))).toEqual(
      facts,
    );
    expect(probeMedia(sampleMp4({ brand: 'qt  ', timescale: 600, duration: 1200, video }))).toEqual({
      ...facts,
      mime: 'video/quicktime',
      durationSeconds: 2,
    });
    expect(probeMedia(sampleMp4({ brand: 'M4A ', timescale: 44_100, duration: 88_200 }))).toEqual({
      mime: 'audio/mp4',
      durationSeconds: 2,
    });
  });

  it('gives exactly the facts the offline renderers report', async () => {
    const sketch = renderSketch({ prompt: 'a lighthouse', width: 320, height: 192, seed: 7 });
    expect(probeMedia(sketch.bytes)).toEqual({ mime: sketch.contentType, width: 320, height: 192 });
    for (const text of ['hi', 'a longer sentence, spoken slowly', 'x'.repeat(777)]) {
      const tone = renderTone({ text, speed: 1.3 });
      expect(probeMedia(tone.bytes)).toEqual({
        mime: tone.contentType,
        durationSeconds: tone.durationSeconds,
      });
    }
    for (const [resolution, fps] of [
      ['320x240', 12],
      ['1280x720', 24],
    ] as const) {
      const reel = await renderReel({ prompt: 'waves', duration_seconds: 3, resolution, fps });
      expect(probeMedia(reel.bytes)).toEqual({
        mime: reel.contentType,
        width: reel.width,
        height: reel.height,
        durationSeconds: reel.durationSeconds,
        fps: reel.fps,
      });
    }
  });

  it('returns null for other bytes and for every cut of a file', () => {
    for (const other of ['', 'hello', '<svg xmlns="http://www.w3.org/2000/svg"/>', '{"a":1}']) {
      expect(probeMedia(Buffer.from(other))).toBeNull();
    }
    const samples = [
      samplePng(5, 4),
      sampleJpeg(8, 8),
      sampleGif(3, 3),
      sampleWebp('VP8 ', 4, 4),
      sampleWebp('VP8L', 4, 4),
      sampleWebp('VP8X', 4, 4),
      sampleWav(0.01, 8000, 1),
      sampleAvi(4, 4, 2, 2),
      sampleMp4({ timescale: 10, duration: 20, video: { width: 4, height: 4 }, moovLast: true }),
    ];
    for (const sample of samples) {
      expect(probeMedia(sample)).not.toBeNull();
      for (let length = 0; length < sample.length; length++) {
        if (probeMedia(sample.subarray(0, length)) !== null) throw new Error(`a cut at ${length} probed`);
      }
    }
  });

  it('returns null for zero sizes, zero rates and boxes that claim more than the file has', () => {
    expect(probeMedia(samplePng(0, 4))).toBeNull();
    expect(probeMedia(sampleWav(0, 8000, 1))).toBeNull();
    expect(probeMedia(sampleMp4({ timescale: 0, duration: 5, video: { width: 4, height: 4 } }))).toBeNull();
    const png = samplePng(5, 4);
    png.writeUInt32BE(0xfffffff0, 33); // IDAT's length
    expect(probeMedia(png)).toBeNull();
    const mp4 = sampleMp4({ timescale: 10, duration: 20 });
    mp4.writeUInt32BE(1, mp4.length - 308); // mdat: a 64-bit size follows ...
    expect(probeMedia(mp4)).toBeNull(); // ... and it is absurd
  });

  describe('on hostile input', () => {
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
    const sane = (bytes: Buffer): void => {
      const facts = probeMedia(bytes);
      if (facts === null) return;
      for (const n of [facts.width, facts.height, facts.durationSeconds]) {
        if (n !== undefined && !(Number.isFinite(n) && n > 0)) throw new Error(`bad fact ${n}`);
      }
    };

    it('never throws on random bytes, behind any magic number', () => {
      const magic = fc.constantFrom(...samples.map((s) => s.subarray(0, 12)), Buffer.alloc(0));
      fc.assert(
        fc.property(magic, fc.uint8Array({ maxLength: 600 }), (head, tail) => {
          sane(Buffer.concat([head, tail]));
        }),
        { numRuns: 3000 },
      );
    });

    it('never throws on valid files with bytes overwritten, inserted or cut', () => {
      fc.assert(fc.property(editedSample(samples), sane), { numRuns: 5000 });
    });

    it('takes one pass over a large file of repeated headers', () => {
      // 4 MiB of the smallest MPEG-2 layer III frames (8 kbps, 16 kHz: 36 bytes), and of JPEG fill bytes.
      const frame = Buffer.concat([Buffer.from([0xff, 0xf3, 0x18, 0xc4]), Buffer.alloc(32)]);
      const frames = Buffer.concat(Array.from({ length: 116_508 }, () => frame));
      const started = Date.now();
      expect(probeMedia(frames)).toEqual({ mime: 'audio/mpeg', durationSeconds: (116_508 * 576) / 16_000 });
      sane(Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(4 << 20, 0xff)]));
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });
});
