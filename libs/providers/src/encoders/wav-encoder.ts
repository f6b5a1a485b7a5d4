const HEADER_BYTES = 44;

/**
 * A canonical RIFF/WAVE file: `fmt ` (PCM, 1 channel, 16-bit little-endian) then `data`.
 * RIFF size = 36 + data bytes; byte rate = sampleRate * 2; block align = 2.
 */
export function encodeWavPcm16Mono(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(HEADER_BYTES + dataBytes);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(HEADER_BYTES - 8 + dataBytes, 4);
  out.write('WAVE', 8, 'latin1');
  out.write('fmt ', 12, 'latin1');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // audio format: PCM
  out.writeUInt16LE(1, 22); // channels
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0, o = HEADER_BYTES; i < samples.length; i++, o += 2) {
    const v = samples[i]!;
    out[o] = v & 0xff;
    out[o + 1] = (v >> 8) & 0xff;
  }
  return out;
}
