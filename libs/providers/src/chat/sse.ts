/**
 * An incremental parser for Server-Sent Events (the WHATWG event-stream format), fed arbitrary byte chunks:
 * UTF-8 characters split across chunks, `\r\n`, `\n` or `\r` line ends, `:` comments, multi-line `data:`.
 */

export interface SseFrame {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  id?: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  /** A `\r` ended the last chunk: a `\n` starting the next one belongs to the same line end. */
  private pendingCr = false;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  /** The frames completed by this chunk. */
  push(chunk: Uint8Array): SseFrame[] {
    return this.lines(this.decoder.decode(chunk, { stream: true }));
  }

  /** The frames completed at the end of the stream; a frame without its blank line is dropped, as the format says. */
  end(): SseFrame[] {
    const frames = this.lines(this.decoder.decode());
    this.buffer = '';
    this.reset();
    return frames;
  }

  private lines(text: string): SseFrame[] {
    let input = text;
    if (this.pendingCr && input !== '') {
      if (input.startsWith('\n')) input = input.slice(1);
      this.pendingCr = false;
    }
    this.buffer += input;
    const frames: SseFrame[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      const frame = this.line(this.buffer.slice(start, i));
      if (frame) frames.push(frame);
      if (ch === 13) {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return frames;
  }

  private line(line: string): SseFrame | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): SseFrame | undefined {
    if (this.data.length === 0) {
      this.event = '';
      return undefined;
    }
    const frame: SseFrame = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) frame.id = this.id;
    this.reset();
    return frame;
  }

  private reset(): void {
    this.event = '';
    this.data = [];
  }
}
