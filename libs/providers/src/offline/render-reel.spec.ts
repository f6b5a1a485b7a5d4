import sharp from 'sharp';
import { probeMedia } from '../media/probe-media';
import { findChunk, readRiff } from '../testing/riff-reader';
import { renderReel, type ReelVideo } from './render-reel';

function aviFacts(bytes: Buffer) {
  const riff = readRiff(bytes);
  const avih = findChunk(riff, 'avih')!.data;
  const strh = findChunk(riff, 'strh')!.data;
  const strf = findChunk(riff, 'strf')!.data;
  const movi = findChunk(riff, 'movi')!;
  const idx1 = findChunk(riff, 'idx1')!;
  return { riff, avih, strh, strf, movi, idx1 };
}

describe('renderReel (local/reel, Motion-JPEG AVI)', () => {
  let video: ReelVideo;
  beforeAll(async () => {
    video = await renderReel({ prompt: 'waves rolling onto a beach', duration_seconds: 3 });
  });

  it('writes RIFF AVI with consistent sizes: hdrl, movi and idx1 in that order', () => {
    const { riff } = aviFacts(video.bytes);
    expect(riff.listType).toBe('AVI ');
    expect(riff.size).toBe(video.bytes.length - 8);
    expect(riff.children!.map((c) => c.listType ?? c.id)).toEqual(['hdrl', 'movi', 'idx1']);
    expect(video.contentType).toBe('video/x-msvideo');
  });

  it('declares frame count, rate and size in avih, strh (vids, MJPG) and strf (MJPG)', () => {
    const { avih, strh, strf } = aviFacts(video.bytes);
    // The schema's defaults: 320x240 at 12 fps.
    expect(video).toMatchObject({ width: 320, height: 240, fps: 12, frames: 36, durationSeconds: 3 });
    expect(avih.readUInt32LE(0)).toBe(Math.round(1e6 / 12)); // microseconds a frame
    expect(avih.readUInt32LE(12) & 0x10).toBe(0x10); // AVIF_HASINDEX
    expect(avih.readUInt32LE(16)).toBe(36); // total frames
    expect(avih.readUInt32LE(24)).toBe(1); // streams
    expect([avih.readUInt32LE(32), avih.readUInt32LE(36)]).toEqual([320, 240]);
    expect(strh.toString('latin1', 0, 8)).toBe('vidsMJPG');
    expect(strh.readUInt32LE(24) / strh.readUInt32LE(20)).toBe(12); // rate / scale
    expect(strh.readUInt32LE(32)).toBe(36); // length in frames
    expect(strf.readUInt32LE(0)).toBe(40);
    expect([strf.readInt32LE(4), strf.readInt32LE(8)]).toEqual([320, 240]);
    expect(strf.toString('latin1', 16, 20)).toBe('MJPG');
  });

  it('has one 00dc JPEG chunk a frame of the stated size, and idx1 entries that point at them', async () => {
    const { movi, idx1 } = aviFacts(video.bytes);
    const frames = movi.children!;
    expect(frames).toHaveLength(36);
    expect(frames.every((f) => f.id === '00dc')).toBe(true);
    expect(idx1.size).toBe(16 * 36);
    const moviFourcc = movi.offset + 8;
    frames.forEach((frame, i) => {
      const entry = idx1.data.subarray(16 * i, 16 * i + 16);
      expect(entry.toString('latin1', 0, 4)).toBe('00dc');
      expect(entry.readUInt32LE(4) & 0x10).toBe(0x10); // AVIIF_KEYFRAME
      expect(moviFourcc + entry.readUInt32LE(8)).toBe(frame.offset);
      expect(entry.readUInt32LE(12)).toBe(frame.size);
    });
    for (const frame of [frames[0]!, frames[35]!]) {
      expect(await sharp(frame.data).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    }
    expect(frames[0]!.data.equals(frames[35]!.data)).toBe(false); // it moves
  });

  it.each([
    ['320x240', 30, 320, 240],
    ['640x360', 24, 640, 360],
    ['1280x720', 12, 1280, 720],
  ] as const)('honours resolution %s and fps %i, as the file measures', async (resolution, fps, w, h) => {
    const reel = await renderReel({ prompt: 'storm', duration_seconds: 2, resolution, fps });
    expect(reel).toMatchObject({ width: w, height: h, fps, frames: 2 * fps, durationSeconds: 2 });
    expect(probeMedia(reel.bytes)).toEqual({
      mime: 'video/x-msvideo',
      width: w,
      height: h,
      durationSeconds: 2,
      fps,
    });
    const frames = findChunk(readRiff(reel.bytes), 'movi')!.children!;
    expect(frames).toHaveLength(2 * fps);
    expect(await sharp(frames[fps]!.data).metadata()).toMatchObject({ width: w, height: h });
  });

  it('renders the largest video the schema allows (10 s of 1280x720 at 30 fps) in a few seconds', async () => {
    const started = performance.now();
    const longest = await renderReel({
      prompt: 'storm',
      duration_seconds: 10,
      resolution: '1280x720',
      fps: 30,
    });
    expect(longest).toMatchObject({ durationSeconds: 10, fps: 30, frames: 300, usage: { seconds: 10 } });
    expect(longest.bytes.length).toBeLessThan(20_000_000);
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('is deterministic and follows the prompt', async () => {
    const input = { prompt: 'a storm', duration_seconds: 1 };
    const first = await renderReel(input);
    expect((await renderReel({ ...input })).bytes.equals(first.bytes)).toBe(true);
    expect((await renderReel({ ...input, prompt: 'a calm sea' })).bytes.equals(first.bytes)).toBe(false);
  });

  it('rejects durations outside 1..10 seconds', async () => {
    await expect(renderReel({ prompt: 'x', duration_seconds: 0 })).rejects.toThrow(RangeError);
    await expect(renderReel({ prompt: 'x', duration_seconds: 11 })).rejects.toThrow(RangeError);
    await expect(renderReel({ prompt: 'x', duration_seconds: 1.5 })).rejects.toThrow(RangeError);
  });
});
