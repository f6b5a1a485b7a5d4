import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  gifSample,
  jpegSample,
  mp3Sample,
  mp4Sample,
  pngSample,
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
});
