import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { EventStream, settleWithin, SSE_KEEP_ALIVE } from './event-stream';

/** The socket side of a reply: what was written, in order, and whether it ended. */
class FakeRaw extends EventEmitter {
  readonly written: string[] = [];
  head: { status: number; headers: Record<string, string> } | undefined;
  ended = false;
  destroyed = false;

  writeHead(status: number, headers: Record<string, string>): void {
    this.head = { status, headers };
  }

  write(text: string): boolean {
    if (this.ended) throw new Error('write after end');
    this.written.push(text);
    return true;
  }

  end(text?: string): void {
    if (text !== undefined) this.written.push(text);
    this.ended = true;
  }
}

function fakeReply(): { reply: FastifyReply; raw: FakeRaw; hijacked: () => boolean } {
  const raw = new FakeRaw();
  let hijacked = false;
  const reply = {
    raw,
    hijack: () => {
      hijacked = true;
    },
    getHeaders: () => ({ 'x-request-id': 'req_1' }),
  } as unknown as FastifyReply;
  return { reply, raw, hijacked: () => hijacked };
}

const SILENT_MS = 1_000;
const comments = (raw: FakeRaw) => raw.written.filter((w) => w === SSE_KEEP_ALIVE).length;

describe('EventStream', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function open(text = SSE_KEEP_ALIVE) {
    const fake = fakeReply();
    const stream = new EventStream(
      fake.reply,
      200,
      { 'content-type': 'text/event-stream' },
      { text, silentMs: SILENT_MS },
    );
    return { ...fake, stream };
  }

  it('takes the reply over and keeps the edge headers beside its own', () => {
    const { raw, hijacked } = open();
    expect(hijacked()).toBe(true);
    expect(raw.head).toEqual({
      status: 200,
      headers: { 'x-request-id': 'req_1', 'content-type': 'text/event-stream' },
    });
    expect(raw.written).toEqual([]);
  });

  it('writes the keep-alive after each silent interval, and only then', () => {
    const { raw } = open();
    jest.advanceTimersByTime(SILENT_MS - 1);
    expect(raw.written).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(raw.written).toEqual([SSE_KEEP_ALIVE]);
    jest.advanceTimersByTime(SILENT_MS - 1);
    expect(comments(raw)).toBe(1);
    jest.advanceTimersByTime(1);
    expect(raw.written).toEqual([SSE_KEEP_ALIVE, SSE_KEEP_ALIVE]);
  });

  it('writes none between frames that come quicker than the interval; silence counts from the last write', async () => {
    const { raw, stream } = open();
    for (let i = 0; i < 10; i += 1) {
      jest.advanceTimersByTime(SILENT_MS / 2);
      await stream.write(`data: ${i}\n\n`);
    }
    expect(comments(raw)).toBe(0);
    jest.advanceTimersByTime(SILENT_MS - 1);
    expect(comments(raw)).toBe(0);
    jest.advanceTimersByTime(1);
    expect(raw.written.at(-1)).toBe(SSE_KEEP_ALIVE);
    expect(raw.written.filter((w) => w.startsWith('data: '))).toHaveLength(10);
  });

  it('keepAliveNow writes the keep-alive at once and restarts the silence', async () => {
    const { raw, stream } = open(' ');
    jest.advanceTimersByTime(SILENT_MS / 2);
    await stream.keepAliveNow();
    expect(raw.written).toEqual([' ']);
    jest.advanceTimersByTime(SILENT_MS - 1);
    expect(raw.written).toEqual([' ']);
    jest.advanceTimersByTime(1);
    expect(raw.written).toEqual([' ', ' ']);
  });

  it('end clears the timer: nothing is written after the last frame', () => {
    const { raw, stream } = open();
    jest.advanceTimersByTime(SILENT_MS);
    stream.end('data: [DONE]\n\n');
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(SILENT_MS * 5);
    expect(raw.written).toEqual([SSE_KEEP_ALIVE, 'data: [DONE]\n\n']);
    expect(raw.ended).toBe(true);
  });

  it('a client that went away gets no keep-alive, and its writes are dropped', async () => {
    const { raw, stream } = open();
    raw.emit('close');
    expect(stream.closed).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(SILENT_MS * 5);
    await stream.write('data: late\n\n');
    stream.end('data: [DONE]\n\n');
    expect(raw.written).toEqual([]);
    expect(raw.ended).toBe(false);
  });
});

describe('settleWithin', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the value of a promise settled in time, and leaves no timer', async () => {
    await expect(settleWithin(Promise.resolve(7), 100)).resolves.toEqual({ status: 'fulfilled', value: 7 });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives the failure of a promise rejected in time', async () => {
    const reason = new Error('refused');
    await expect(settleWithin(Promise.reject(reason), 100)).resolves.toEqual({ status: 'rejected', reason });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('says pending after the time; the promise still settles for whoever awaits it then', async () => {
    let fail!: (error: Error) => void;
    const slow = new Promise<number>((_resolve, reject) => {
      fail = reject;
    });
    const outcome = settleWithin(slow, 100);
    jest.advanceTimersByTime(100);
    await expect(outcome).resolves.toEqual({ status: 'pending' });
    fail(new Error('late'));
    await expect(slow).rejects.toThrow('late');
  });
});
