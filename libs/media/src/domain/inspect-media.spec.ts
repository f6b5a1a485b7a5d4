import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  gifSample,
  jpegSample,
  mp3Sample,
  mp4Sample,
  pngHeaderOnly,
  pngSample,
  wavOf,
  wavSample,
  webmSample,
  webpSample,
} from '../testing/media-samples';
import { inspectMedia, type Inspection } from './inspect-media';
import type { MediaType } from './media-types';

const ZIP = Buffer.from('504b0304140000000800', 'hex');
const HTML = Buffer.from('<html><script>alert(1)</script></html>');

function refusal(inspection: Inspection) {
  if (inspection.ok) throw new Error('expected a refusal');
  return inspection.refusal;
}

describe('inspectMedia: verification from the stored bytes', () => {
  it.each<[MediaType, () => Promise<Buffer>]>([
    ['image/png', () => pngSample(40, 30)],
    ['image/jpeg', () => jpegSample(40, 30)],
    ['image/webp', () => webpSample(40, 30)],
    ['image/gif', () => gifSample(40, 30)],
  ])('accepts a real %s and measures it', async (type, make) => {
    const bytes = await make();
    const result = await inspectMedia(bytes, type);
    expect(result).toEqual({
      ok: true,
      facts: { sha256: createHash('sha256').update(bytes).digest('hex'), width: 40, height: 30 },
    });
  });

  it.each<[MediaType, Buffer, Record<string, number>]>([
    ['audio/wav', wavSample(2.5), {}],
    ['audio/mpeg', mp3Sample(3), {}],
    ['video/mp4', mp4Sample(4, 64, 48), { width: 64, height: 48 }],
    ['video/webm', webmSample(5, 80, 60), { width: 80, height: 60 }],
  ])('accepts %s with its measured duration', async (type, bytes, picture) => {
    const result = await inspectMedia(bytes, type);
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    expect(result.facts).toMatchObject(picture);
    expect(result.facts.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const expected = { 'audio/wav': 2.5, 'audio/mpeg': 3, 'video/mp4': 4, 'video/webm': 5 }[type as string]!;
    expect(result.facts.durationSeconds).toBeCloseTo(expected, 1);
  });

  it('refuses an empty file', async () => {
    expect(refusal(await inspectMedia(Buffer.alloc(0), 'image/png'))).toEqual({
      messageId: 'media.empty',
      params: {},
    });
  });

  it('refuses a spoofed type: the magic numbers decide, not the declared type or the name', async () => {
    expect(refusal(await inspectMedia(await pngSample(), 'image/jpeg'))).toEqual({
      messageId: 'media.type_mismatch',
      params: { declared: 'image/jpeg', detected: 'image/png' },
    });
    expect(refusal(await inspectMedia(wavSample(1), 'video/mp4'))).toMatchObject({
      messageId: 'media.type_mismatch',
    });
    expect(refusal(await inspectMedia(HTML, 'image/png'))).toEqual({
      messageId: 'media.type_unknown',
      params: { declared: 'image/png' },
    });
    // A PNG signature in front of text is still no PNG.
    const fake = Buffer.concat([(await pngSample()).subarray(0, 16), HTML]);
    expect(refusal(await inspectMedia(fake, 'image/png')).messageId).toBe('media.damaged');
  });

  it.each<[MediaType, () => Promise<Buffer> | Buffer]>([
    ['image/png', () => pngSample()],
    ['image/jpeg', () => jpegSample()],
    ['image/webp', () => webpSample()],
    ['image/gif', () => gifSample()],
    ['audio/wav', () => wavSample(1)],
    ['audio/mpeg', () => mp3Sample(1)],
    ['video/mp4', () => mp4Sample(1)],
    ['video/webm', () => webmSample(1)],
  ])('refuses a truncated %s as damaged', async (type, make) => {
    const bytes = await make();
    const cut = bytes.subarray(0, bytes.length - 7);
    expect(refusal(await inspectMedia(cut, type))).toEqual({
      messageId: 'media.damaged',
      params: { contentType: type },
    });
  });

  it.each<[MediaType, () => Promise<Buffer> | Buffer]>([
    ['image/png', () => pngSample()],
    ['image/jpeg', () => jpegSample()],
    ['image/webp', () => webpSample()],
    ['image/gif', () => gifSample()],
    ['audio/wav', () => wavSample(1)],
    ['audio/mpeg', () => mp3Sample(1)],
    ['video/mp4', () => mp4Sample(1)],
    ['video/webm', () => webmSample(1)],
  ])('refuses a %s polyglot (another file appended) as trailing data', async (type, make) => {
    const polyglot = Buffer.concat([await make(), HTML, ZIP]);
    const result = refusal(await inspectMedia(polyglot, type));
    // An ISO box header cannot be told from the start of appended data: it reads as a box cut short.
    expect(result.messageId).toBe(type === 'video/mp4' ? 'media.damaged' : 'media.trailing_data');
    expect(refusal(await inspectMedia(Buffer.concat([await make(), Buffer.from('x')]), type)).messageId).toBe(
      'media.trailing_data',
    );
  });

  it('refuses an image whose pixel data does not decode', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const idat = png.indexOf('IDAT');
    const broken = Buffer.from(png);
    broken.fill(0xff, idat + 8, idat + 200); // the zlib stream, not its framing
    expect(refusal(await inspectMedia(broken, 'image/png')).messageId).toBe('media.damaged');
  });

  it('refuses a JPEG cut short whose end marker was put back (its structure looks whole)', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const patched = Buffer.concat([
      jpeg.subarray(0, Math.floor(jpeg.length * 0.7)),
      Buffer.from([0xff, 0xd9]),
    ]);
    expect(refusal(await inspectMedia(patched, 'image/jpeg'))).toEqual({
      messageId: 'media.damaged',
      params: { contentType: 'image/jpeg' },
    });
  });

  it('measures an animated GIF by one frame', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 10, height: 30, channels: 4, background: colour } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame('#f00'), await frame('#00f')], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated, { animated: true }).metadata()).pages).toBe(2);
    const result = await inspectMedia(animated, 'image/gif');
    expect(result.ok && { width: result.facts.width, height: result.facts.height }).toEqual({
      width: 10,
      height: 30,
    });
  });

  it.each<[MediaType, (seconds: number) => Buffer]>([
    ['audio/wav', (s) => wavSample(s, 200)],
    ['audio/mpeg', (s) => mp3Sample(s)],
    ['video/mp4', (s) => mp4Sample(s)],
    ['video/webm', (s) => webmSample(s)],
  ])('accepts 600 seconds of %s and refuses 601', async (type, make) => {
    const accepted = await inspectMedia(make(600), type);
    expect(accepted.ok && accepted.facts.durationSeconds).toBeCloseTo(600, 0);
    const long = refusal(await inspectMedia(make(601), type));
    expect(long.messageId).toBe('media.too_long');
    expect(long.params['max']).toBe(600);
    expect(Number(long.params['seconds'])).toBeCloseTo(601, 0);
  });

  it('refuses a video without a measurable duration', async () => {
    const mp4 = mp4Sample(3);
    const at = mp4.indexOf('mvhd') + 4 + 16; // mvhd duration = 0
    mp4.writeUInt32BE(0, at);
    expect(refusal(await inspectMedia(mp4, 'video/mp4')).messageId).toBe('media.no_duration');
  });

  describe('a media file must be decodable as what it claims', () => {
    it('refuses the 144-byte MP4 of a movie header alone (it committed as a 5-second video)', async () => {
      const trackless = mp4Sample(5, 64, 48, Buffer.alloc(0), { tracks: false });
      expect(trackless.length).toBe(144);
      expect(refusal(await inspectMedia(trackless, 'video/mp4'))).toEqual({
        messageId: 'media.no_track',
        params: { contentType: 'video/mp4' },
      });
    });

    it.each([
      ['a track of no duration', { mediaSeconds: 0 }],
      ['only a text track', { handler: 'text' }],
      ['only a hint track', { handler: 'hint' }],
    ])('refuses an MP4 with %s', async (_name, options) => {
      const mp4 = mp4Sample(5, 64, 48, undefined, options);
      expect(refusal(await inspectMedia(mp4, 'video/mp4')).messageId).toBe('media.no_track');
    });

    it('accepts an MP4 whose only track is audio, and measures it by the movie header', async () => {
      const result = await inspectMedia(mp4Sample(3, 64, 48, undefined, { handler: 'soun' }), 'video/mp4');
      expect(result.ok && result.facts.durationSeconds).toBe(3);
    });

    it('refuses a WebM without a video or audio track', async () => {
      expect(refusal(await inspectMedia(webmSample(5, 64, 48, { tracks: false }), 'video/webm'))).toEqual({
        messageId: 'media.no_track',
        params: { contentType: 'video/webm' },
      });
    });

    /** A good 16-bit mono WAV (8 kHz) with one field of its header changed. */
    const patched = (offset: number, value: number, bytes: 2 | 4) => {
      const wav = wavOf(1, 8000);
      if (bytes === 2) wav.writeUInt16LE(value, offset);
      else wav.writeUInt32LE(value, offset);
      return wav;
    };
    it.each<[string, Buffer, string, number, string]>([
      ['0 channels', patched(22, 0, 2), 'numChannels', 0, '≥ 1'],
      ['0 bits per sample', patched(34, 0, 2), 'bitsPerSample', 0, '8, 16, 24, 32'],
      ['12 bits per sample', patched(34, 12, 2), 'bitsPerSample', 12, '8, 16, 24, 32'],
      ['a byte rate of 1', patched(28, 1, 4), 'byteRate', 1, '16000 (sampleRate × blockAlign)'],
      ['a block align of 3', patched(32, 3, 2), 'blockAlign', 3, '2 (numChannels × bitsPerSample / 8)'],
      ['a sample rate of 0', patched(24, 0, 4), 'sampleRate', 0, '1–768000'],
      [
        'a compressed encoding (IMA ADPCM, 0x11)',
        patched(20, 0x11, 2),
        'audioFormat',
        17,
        '1, 3, 6, 7, 65534',
      ],
      ['float samples of 16 bits', wavOf(1, 8000, { format: 3, bits: 16 }), 'bitsPerSample', 16, '32, 64'],
    ])('refuses a WAV with %s, naming the field', async (_name, wav, field, value, expected) => {
      expect(refusal(await inspectMedia(wav, 'audio/wav'))).toEqual({
        messageId: 'media.inconsistent_header',
        params: { contentType: 'audio/wav', field, value, expected },
      });
    });

    it('refuses a WAV whose data comes before its format', async () => {
      const wav = wavOf(1, 8000);
      const fmt = wav.subarray(12, 36);
      const data = wav.subarray(36);
      const swapped = Buffer.concat([wav.subarray(0, 12), data, fmt]);
      expect(refusal(await inspectMedia(swapped, 'audio/wav')).messageId).toBe('media.damaged');
    });

    it.each<[string, Buffer, number]>([
      ['8-bit mono PCM', wavSample(2), 2],
      ['16-bit stereo PCM at 44.1 kHz', wavOf(1.5, 44100, { channels: 2, bits: 16 }), 1.5],
      ['24-bit mono PCM at 48 kHz', wavOf(1, 48000, { bits: 24 }), 1],
      ['32-bit float stereo', wavOf(2, 8000, { format: 3, channels: 2, bits: 32 }), 2],
      ['mu-law', wavOf(1, 8000, { format: 7, bits: 8 }), 1],
      ['extensible 16-bit PCM', wavOf(1, 16000, { channels: 2, bits: 16, extensible: true }), 1],
      ['extensible float', wavOf(1, 16000, { format: 3, bits: 32, extensible: true }), 1],
    ])('accepts a consistent WAV: %s', async (_name, wav, seconds) => {
      const result = await inspectMedia(wav, 'audio/wav');
      if (!result.ok) throw new Error(JSON.stringify(result.refusal));
      expect(result.facts.durationSeconds).toBeCloseTo(seconds, 2);
    });

    it('says that a 10001 x 10000 PNG is over the pixel limit, naming the limit (not "damaged")', async () => {
      expect(refusal(await inspectMedia(pngHeaderOnly(10001, 10000), 'image/png'))).toEqual({
        messageId: 'media.too_many_pixels',
        params: { width: 10001, height: 10000, pixels: 100010000, max: 100_000_000 },
      });
      // A header within the limit whose pixels are not all there is still damaged.
      expect(refusal(await inspectMedia(pngHeaderOnly(200, 100), 'image/png')).messageId).toBe(
        'media.damaged',
      );
    });
  });
});
