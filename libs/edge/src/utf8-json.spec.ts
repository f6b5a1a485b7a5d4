import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8 } from './utf8-json';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('firstInvalidUtf8', () => {
  it('finds nothing in well-formed UTF-8: ASCII, 2, 3 and 4 byte characters, the edges of each range', () => {
    for (const text of ['', '{"a":1}', 'café', '€ ✓ 中文', '🦊 \u{10ffff} \u{ffff} \u{e000} \u{d7ff}']) {
      expect(firstInvalidUtf8(Buffer.from(text, 'utf8'))).toBe(-1);
    }
  });

  it.each([
    ['a Latin-1 byte', bytes(0x63, 0x61, 0x66, 0xe9, 0x22), 3],
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['a lead byte cut short by ASCII', bytes(0xc3, 0x22), 0],
    ['a lead byte at the end', bytes(0x61, 0xe2, 0x82), 1],
    ['an overlong "/" (C0 AF)', bytes(0xc0, 0xaf), 0],
    ['an overlong 3-byte form (E0 80 AF)', bytes(0xe0, 0x80, 0xaf), 0],
    ['an overlong 4-byte form (F0 80 80 AF)', bytes(0xf0, 0x80, 0x80, 0xaf), 0],
    ['an encoded surrogate (ED A0 80, as CESU-8 writes)', bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ['a code point past U+10FFFF (F4 90 80 80)', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['bytes that never occur (F5, FF)', bytes(0x20, 0xf5, 0x80, 0x80, 0x80), 1],
  ])('finds %s', (_name, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
    expect(isUtf8(input)).toBe(false);
  });

  it('agrees with Node’s own check on random bytes', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let run = 0; run < 5000; run += 1) {
      // Mostly valid text with a few random bytes in it, so that both answers occur.
      const text = Buffer.from(`x${String.fromCodePoint(next() * 300)}y`, 'utf8');
      const input = Buffer.concat([text, Buffer.from(Array.from({ length: next() % 3 }, next))]);
      expect(firstInvalidUtf8(input) === -1).toBe(isUtf8(input));
    }
  });
});
