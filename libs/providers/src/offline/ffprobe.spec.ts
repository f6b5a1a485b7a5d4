import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderReel } from './render-reel';
import { renderTone } from './render-tone';

function hasFfprobe(): boolean {
  try {
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A second opinion from a real media tool, when the machine has one (skipped otherwise). */
(hasFfprobe() ? describe : describe.skip)('ffprobe reads the offline files', () => {
  let dir = '';
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'offline-media-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function probe(name: string, bytes: Buffer) {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    const args = ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file];
    return JSON.parse(execFileSync('ffprobe', args, { encoding: 'utf8' })) as {
      streams: Record<string, string | number>[];
      format: Record<string, string | number>;
    };
  }

  it('the AVI: MJPEG 640x360 at 24 fps, 48 frames, 2 seconds', async () => {
    const reel = await renderReel({ prompt: 'waves', resolution: '640x360', fps: 24 });
    const { streams, format } = probe('reel.avi', reel.bytes);
    expect(streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'mjpeg', width: 640, height: 360 });
    expect(streams[0]).toMatchObject({ r_frame_rate: '24/1', nb_read_frames: '48' });
    expect(Number(format.duration)).toBeCloseTo(2, 1);
  });

  it('the WAV: pcm_s16le mono 16 kHz of the stated duration', () => {
    const { streams, format } = probe('tone.wav', renderTone({ text: 'Hello, and welcome.' }).bytes);
    expect(streams[0]).toMatchObject({ codec_name: 'pcm_s16le', channels: 1, sample_rate: '16000' });
    expect(Number(format.duration)).toBeCloseTo(1.14, 2);
  });
});
