import fc from 'fast-check';
import { splitAt } from '../testing/fake-upstream';
import { SseParser, type SseFrame } from './sse';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function parse(chunks: Uint8Array[]): SseFrame[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

const STREAM =
  ': keep-alive comment\r\n' +
  'event: content_block_delta\r\ndata: {"text":"héllo 🌍"}\r\n\r\n' +
  'data: line one\ndata:line two\nid: 7\n\n' +
  'data: cr only\r\r' +
  'event: ping\n\n' +
  'data\n\n' +
  'data: [DONE]\n\n' +
  'data: never finished';

const EXPECTED: SseFrame[] = [
  { event: 'content_block_delta', data: '{"text":"héllo 🌍"}' },
  { event: 'message', data: 'line one\nline two', id: '7' },
  { event: 'message', data: 'cr only', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

describe('SseParser', () => {
  it('parses comments, CRLF/LF/CR line ends, multi-line data, ids, and drops an unterminated last frame', () => {
    expect(parse([bytes(STREAM)])).toEqual(EXPECTED);
  });

  it('joins a UTF-8 character split across chunks and a CRLF split between two chunks', () => {
    const whole = bytes('data: 🌍\r\n\r\ndata: b\r\n\r\n');
    const chunks = [whole.subarray(0, 8), whole.subarray(8, 11), whole.subarray(11, 12), whole.subarray(12)];
    expect(parse(chunks)).toEqual([
      { event: 'message', data: '🌍' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('does not let an event name without data leak into the next frame', () => {
    expect(parse([bytes('event: ping\n\ndata: x\n\n')])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('gives the same frames whether the bytes arrive whole, byte by byte or in random splits', () => {
    const whole = bytes(STREAM);
    const oneByOne = Array.from(whole, (_, i) => whole.subarray(i, i + 1));
    expect(parse(oneByOne)).toEqual(EXPECTED);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(parse(splitAt(whole, cuts))).toEqual(EXPECTED);
      }),
    );
  });

  it('gives the same frames for any generated stream, however it is split', () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ''));
    const frame = fc.record({
      data: fc.array(line, { minLength: 1, maxLength: 3 }),
      end: fc.constantFrom('\n', '\r\n', '\r'),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (frames, cuts) => {
          const text = frames.map((f) => f.data.map((d) => `data: ${d}${f.end}`).join('') + f.end).join('');
          const expected = frames.map((f) => ({ event: 'message', data: f.data.join('\n') }));
          expect(parse(splitAt(bytes(text), cuts))).toEqual(expected);
        },
      ),
    );
  });
});
