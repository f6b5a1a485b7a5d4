import { encodeWavPcm16Mono } from '../encoders/wav-encoder';
import { OFFLINE_LIMITS, TONE_VOICES, type ToneInput } from './offline-inputs';
import { digestOf } from './seeded-random';

export const TONE_SAMPLE_RATE = 16_000;
/** Length rule: 60 ms a character (Unicode code point) at speed 1, divided by `speed`, ... */
export const TONE_MS_PER_CHARACTER = 60;
/** ... never under half a second ... */
export const TONE_MIN_MS = 500;
/** ... nor over 300 s (5000 characters, the schema's maximum text, at speed 1); longer text is sped up. */
export const TONE_MAX_MS = 300_000;

export interface ToneAudio {
  readonly bytes: Buffer;
  readonly contentType: 'audio/wav';
  /** Whole milliseconds, exact: the sample count is a multiple of 16 at 16 kHz. */
  readonly durationSeconds: number;
  readonly sampleRate: number;
  /** `perSecond` bills the audio's duration. */
  readonly usage: { readonly seconds: number };
}

const VOICE_HZ: Record<(typeof TONE_VOICES)[number], number> = { bass: 110, alto: 220, soprano: 440 };
/** A major pentatonic scale over two octaves: any sequence of its notes sounds like a melody. */
const SCALE = [1, 9 / 8, 5 / 4, 3 / 2, 5 / 3, 2, 9 / 4, 5 / 2, 3, 10 / 3];
const AMPLITUDE = 0.3 * 32767;
const RAMP_SAMPLES = 64; // 4 ms fade in and out of each note: no clicks
const SINE_STEPS = 4096;
/** A sine table: the sample loop uses only arithmetic (Math.* calls are slow under Jest's VM context). */
const SINE = Float64Array.from({ length: SINE_STEPS }, (_, i) => Math.sin((2 * Math.PI * i) / SINE_STEPS));

export function toneDurationMs(text: string, speed: number): number {
  const characters = [...text].length;
  const ms = Math.round((characters * TONE_MS_PER_CHARACTER) / speed);
  return Math.min(TONE_MAX_MS, Math.max(TONE_MIN_MS, ms));
}

/**
 * A `local/tone` request: a 16 kHz, 16-bit mono PCM WAV. Each character gets an equal slot of the duration:
 * a note of the voice's scale picked from the character and SHA-256(text, voice), or silence for whitespace.
 */
export function renderTone(input: ToneInput): ToneAudio {
  const { speed: speedBounds, textMaxLength } = OFFLINE_LIMITS.tone;
  const speed = input.speed ?? speedBounds.default;
  const voice = input.voice ?? OFFLINE_LIMITS.tone.voice;
  if (!(speed >= speedBounds.minimum && speed <= speedBounds.maximum)) {
    throw new RangeError(`speed must be between ${speedBounds.minimum} and ${speedBounds.maximum}`);
  }
  const characters = [...input.text]; // code points, as the schema's maxLength counts them
  if (characters.length < 1 || characters.length > textMaxLength) {
    throw new RangeError(`text must have 1 to ${textMaxLength} characters`);
  }
  if (!TONE_VOICES.includes(voice)) throw new RangeError(`unknown voice "${voice}"`);
  const digest = digestOf('local/tone', input.text, voice);
  const notes = characters.map((ch, i) =>
    /\s/u.test(ch)
      ? 0
      : VOICE_HZ[voice] * SCALE[(ch.codePointAt(0)! + digest[i % digest.length]!) % SCALE.length]!,
  );
  const durationMs = toneDurationMs(input.text, speed);
  const samples = new Int16Array((durationMs * TONE_SAMPLE_RATE) / 1000);
  const slot = samples.length / characters.length;
  let phase = 0; // in turns, [0, 1)
  for (let i = 0; i < samples.length; i++) {
    const note = (i / slot) | 0;
    const hz = notes[note < characters.length ? note : characters.length - 1]!;
    if (hz === 0) continue;
    const fadeIn = (i - ((note * slot) | 0) + 1) / RAMP_SAMPLES;
    const fadeOut = ((((note + 1) * slot) | 0) - i) / RAMP_SAMPLES;
    const envelope = fadeIn < 1 || fadeOut < 1 ? (fadeIn < fadeOut ? fadeIn : fadeOut) : 1;
    phase += hz / TONE_SAMPLE_RATE;
    if (phase >= 1) phase -= 1;
    samples[i] = (AMPLITUDE * envelope * SINE[(phase * SINE_STEPS) | 0]!) | 0;
  }
  const bytes = encodeWavPcm16Mono(samples, TONE_SAMPLE_RATE);
  const durationSeconds = durationMs / 1000;
  return {
    bytes,
    contentType: 'audio/wav',
    durationSeconds,
    sampleRate: TONE_SAMPLE_RATE,
    usage: { seconds: durationSeconds },
  };
}
