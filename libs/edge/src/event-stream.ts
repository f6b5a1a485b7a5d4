import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/** The comment line that keeps a silent Server-Sent Events stream alive (spec: "while a model thinks"). */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** What a stream writes when it has been silent for `silentMs` (TEXT_STREAM_KEEPALIVE_MS). */
export interface KeepAlive {
  /** {@link SSE_KEEP_ALIVE} for SSE; whitespace in a JSON body, where a comment would corrupt it. */
  readonly text: string;
  readonly silentMs: number;
}

/**
 * A response written as it goes (SSE, or any incremental body): the edge's headers (request id, rate limit) are
 * kept, each write waits for the socket to drain when its buffer is full (a slow reader never makes the process
 * buffer without bound), the keep-alive is written after `silentMs` without a write (never between frames that
 * come quicker), and a client that went away only stops the writing: `closed` tells the caller, whose work goes
 * on.
 */
export class EventStream {
  private gone = false;
  private ended = false;
  private lastWrite = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reply: FastifyReply,
    status: number,
    headers: Record<string, string>,
    private readonly keepAlive: KeepAlive,
  ) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(status, { ...(reply.getHeaders() as Record<string, string>), ...headers });
    raw.on('close', () => {
      this.gone = true;
      clearTimeout(this.timer);
    });
    this.arm(keepAlive.silentMs);
  }

  /** True once the client went away. */
  get closed(): boolean {
    return this.gone || this.reply.raw.destroyed;
  }

  /** Writes `text`, waiting for the socket to drain if its buffer is full; nothing once the client is gone. */
  async write(text: string): Promise<void> {
    if (this.closed) return;
    this.lastWrite = Date.now();
    if (!this.reply.raw.write(text)) {
      await Promise.race([once(this.reply.raw, 'drain'), once(this.reply.raw, 'close')]);
    }
  }

  /** Writes the keep-alive now: for a stream opened because its answer was already silent that long. */
  keepAliveNow(): Promise<void> {
    return this.write(this.keepAlive.text);
  }

  end(text?: string): void {
    this.ended = true;
    clearTimeout(this.timer);
    if (this.closed) return;
    this.reply.raw.end(text);
  }

  /**
   * One timer, due when the stream will have been silent for `silentMs`: a write only moves `lastWrite` (no
   * timer work per frame), and the timer, when it finds a write since, waits for the rest of the interval.
   */
  private arm(ms: number): void {
    this.timer = setTimeout(this.beat, ms);
    this.timer.unref();
  }

  private readonly beat = (): void => {
    if (this.ended || this.closed) return;
    const silent = Date.now() - this.lastWrite;
    if (silent < this.keepAlive.silentMs) {
      this.arm(this.keepAlive.silentMs - silent);
      return;
    }
    this.lastWrite = Date.now();
    this.reply.raw.write(this.keepAlive.text);
    this.arm(this.keepAlive.silentMs);
  };
}

/** How a promise came out within a time: its value, its failure, or still `pending` (await it later). */
export type Outcome<T> =
  | { readonly status: 'fulfilled'; readonly value: T }
  | { readonly status: 'rejected'; readonly reason: unknown }
  | { readonly status: 'pending' };

/**
 * Waits up to `ms` for `promise`. A stream waits so for its first event: one that comes in time opens the stream
 * (and a failure is still a normal error response); past it, the stream opens with a keep-alive and the answer
 * follows in it. A rejection after `ms` is not unhandled: it reaches whoever awaits `promise` then.
 */
export function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: 'pending' }), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ status: 'fulfilled', value });
      },
      (reason: unknown) => {
        clearTimeout(timer);
        resolve({ status: 'rejected', reason });
      },
    );
  });
}
