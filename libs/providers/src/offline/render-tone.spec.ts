import { readRiff } from '../testing/riff-reader';
import { renderTone, TONE_MAX_MS, TONE_MIN_MS, toneDurationMs } from './render-tone';

function wavFields(bytes: Buffer) {
  const riff = readRiff(bytes);
  const [fmt, data] = riff.children!;
  return {
    form: riff.listType,
    riffSize: riff.size,
    fmtId: fmt!.id,
    fmtSize: fmt!.size,
    format: fmt!.data.readUInt16LE(0),
    channels: fmt!.data.readUInt16LE(2),
    sampleRate: fmt!.data.readUInt32LE(4),
    byteRate: fmt!.data.readUInt32LE(8),
    blockAlign: fmt!.data.readUInt16LE(12),
    bitsPerSample: fmt!.data.readUInt16LE(14),
    dataId: data!.id,
    dataSize: data!.size,
    samples: data!.data,
  };
}

describe('renderTone (local/tone WAV)', () => {
  it('writes a RIFF/WAVE PCM 16-bit mono file whose header fields agree with each other and the duration', () => {
    const audio = renderTone({ text: 'Hello, and welcome.', voice: 'soprano' });
    const wav = wavFields(audio.bytes);
    expect(wav).toMatchObject({ form: 'WAVE', fmtId: 'fmt ', fmtSize: 16, format: 1, channels: 1 });
    expect(wav).toMatchObject({ sampleRate: 16000, byteRate: 32000, blockAlign: 2, bitsPerSample: 16 });
    expect(wav.dataId).toBe('data');
    expect(wav.riffSize).toBe(audio.bytes.length - 8);
    expect(wav.riffSize).toBe(36 + wav.dataSize);
    expect(wav.dataSize / wav.byteRate).toBeCloseTo(audio.durationSeconds, 9);
    expect(audio).toMatchObject({ contentType: 'audio/wav', sampleRate: 16000, durationSeconds: 1.14 });
    expect(audio.usage).toEqual({ seconds: 1.14 });
  });

  it('follows the text: 60 ms a character divided by speed, at least 0.5 s, at most 300 s', () => {
    expect(toneDurationMs('abcdefghij', 1)).toBe(600);
    expect(toneDurationMs('abcdefghij', 2)).toBe(TONE_MIN_MS); // 300 ms, raised to the minimum
    expect(toneDurationMs('abcdefghij'.repeat(3), 0.5)).toBe(3600);
    expect(toneDurationMs('hi', 1)).toBe(TONE_MIN_MS);
    expect(toneDurationMs('😀'.repeat(20), 1)).toBe(1200); // code points, not UTF-16 units
    expect(toneDurationMs('a'.repeat(5000), 1)).toBe(TONE_MAX_MS);
    expect(renderTone({ text: 'a'.repeat(5000), speed: 0.5 }).durationSeconds).toBe(300);
  });

  it('is deterministic, and the text and voice change the sound', () => {
    const same = renderTone({ text: 'one two three' }).bytes;
    expect(renderTone({ text: 'one two three', voice: 'alto', speed: 1 }).bytes.equals(same)).toBe(true);
    expect(renderTone({ text: 'one two tree!' }).bytes.equals(same)).toBe(false);
    expect(renderTone({ text: 'one two three', voice: 'bass' }).bytes.equals(same)).toBe(false);
  });

  it('sounds for letters and is silent for whitespace', () => {
    const { samples } = wavFields(renderTone({ text: 'ab  cd' }).bytes); // 6 slots of 80 ms (min 500 ms)
    const count = samples.length / 2;
    const peak = (slot: number) => {
      let max = 0;
      for (let i = Math.ceil((slot * count) / 6); i < Math.floor(((slot + 1) * count) / 6); i++) {
        max = Math.max(max, Math.abs(samples.readInt16LE(2 * i)));
      }
      return max;
    };
    expect(peak(0)).toBeGreaterThan(5000);
    expect(peak(2)).toBe(0);
    expect(peak(3)).toBe(0);
    expect(peak(5)).toBeGreaterThan(5000);
  });

  it('rejects input outside the schema', () => {
    expect(() => renderTone({ text: '' })).toThrow(RangeError);
    expect(() => renderTone({ text: 'a'.repeat(5001) })).toThrow(RangeError);
    expect(() => renderTone({ text: 'a', speed: 3 })).toThrow(RangeError);
  });
});
