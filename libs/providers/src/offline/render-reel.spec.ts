import { findChunk, readRiff } from '../testing/riff-reader';
import { reelFrameSize, renderReel } from './render-reel';

function aviFacts(bytes: Buffer) {
  const riff = readRiff(bytes);
  const avih = findChunk(riff, 'avih')!.data;
  const strh = findChunk(riff, 'strh')!.data;
  const strf = findChunk(riff, 'strf')!.data;
  const movi = findChunk(riff, 'movi')!;
  const idx1 = findChunk(riff, 'idx1')!;
  return { riff, avih, strh, strf, movi, idx1 };
}

describe('renderReel (local/reel AVI)', () => {
  const video = renderReel({ prompt: 'waves rolling onto a beach', duration_seconds: 3 });

  it('writes RIFF AVI with consistent sizes: hdrl, movi and idx1 in that order', () => {
    const { riff } = aviFacts(video.bytes);
    expect(riff.listType).toBe('AVI ');
    expect(riff.size).toBe(video.bytes.length - 8);
    expect(riff.children!.map((c) => c.listType ?? c.id)).toEqual(['hdrl', 'movi', 'idx1']);
    expect(video.contentType).toBe('video/x-msvideo');
  });

  it('declares frame count, rate and dimensions in avih, strh (vids, DIB) and strf (24-bit BI_RGB)', () => {
    const { avih, strh, strf } = aviFacts(video.bytes);
    expect(video).toMatchObject({ width: 192, height: 144, fps: 6, frames: 18, durationSeconds: 3 });
    expect(avih.readUInt32LE(0)).toBe(Math.round(1e6 / 6)); // microseconds a frame
    expect(avih.readUInt32LE(12) & 0x10).toBe(0x10); // AVIF_HASINDEX
    expect(avih.readUInt32LE(16)).toBe(18); // total frames
    expect(avih.readUInt32LE(24)).toBe(1); // streams
    expect([avih.readUInt32LE(32), avih.readUInt32LE(36)]).toEqual([192, 144]);
    expect(strh.toString('latin1', 0, 8)).toBe('vidsDIB ');
    expect(strh.readUInt32LE(24) / strh.readUInt32LE(20)).toBe(6); // rate / scale
    expect(strh.readUInt32LE(32)).toBe(18); // length in frames
    expect(strf.readUInt32LE(0)).toBe(40);
    expect([strf.readInt32LE(4), strf.readInt32LE(8)]).toEqual([192, 144]);
    expect([strf.readUInt16LE(12), strf.readUInt16LE(14), strf.readUInt32LE(16)]).toEqual([1, 24, 0]);
    expect(strf.readUInt32LE(20)).toBe(192 * 3 * 144);
  });

  it('has one 00db chunk a frame, and idx1 entries that point at them', () => {
    const { movi, idx1 } = aviFacts(video.bytes);
    const frames = movi.children!;
    expect(frames).toHaveLength(18);
    expect(frames.every((f) => f.id === '00db' && f.size === 192 * 3 * 144)).toBe(true);
    expect(idx1.size).toBe(16 * 18);
    const moviFourcc = movi.offset + 8;
    frames.forEach((frame, i) => {
      const entry = idx1.data.subarray(16 * i, 16 * i + 16);
      expect(entry.toString('latin1', 0, 4)).toBe('00db');
      expect(entry.readUInt32LE(4) & 0x10).toBe(0x10); // AVIIF_KEYFRAME
      expect(moviFourcc + entry.readUInt32LE(8)).toBe(frame.offset);
      expect(entry.readUInt32LE(12)).toBe(frame.size);
    });
    expect(frames[0]!.data.equals(frames[17]!.data)).toBe(false); // it moves
  });

  it('keeps the requested duration and aspect ratio within 256 x 144 and at most 6 fps', () => {
    expect(reelFrameSize('320x240')).toEqual({ width: 192, height: 144 });
    expect(reelFrameSize('640x360')).toEqual({ width: 256, height: 144 });
    expect(reelFrameSize('1280x720')).toEqual({ width: 256, height: 144 });
    const longest = renderReel({ prompt: 'storm', duration_seconds: 10, resolution: '1280x720', fps: 30 });
    expect(longest).toMatchObject({ durationSeconds: 10, fps: 6, frames: 60, usage: { seconds: 10 } });
    expect(longest.bytes.length).toBeLessThan(7_000_000);
    expect(renderReel({ prompt: 'defaults' })).toMatchObject({ durationSeconds: 2, frames: 12 });
  });

  it('is deterministic and follows the prompt', () => {
    const input = { prompt: 'a storm', duration_seconds: 1 };
    expect(renderReel(input).bytes.equals(renderReel({ ...input }).bytes)).toBe(true);
    expect(renderReel({ ...input, prompt: 'a calm sea' }).bytes.equals(renderReel(input).bytes)).toBe(false);
  });

  it('rejects durations outside 1..10 seconds', () => {
    expect(() => renderReel({ prompt: 'x', duration_seconds: 0 })).toThrow(RangeError);
    expect(() => renderReel({ prompt: 'x', duration_seconds: 11 })).toThrow(RangeError);
    expect(() => renderReel({ prompt: 'x', duration_seconds: 1.5 })).toThrow(RangeError);
  });
});
