import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/** How long a stream may stay silent before a `: keep-alive` comment (spec: "while a model thinks"). */
export const KEEP_ALIVE_MS = 10_000;

/**
 * A response written as it goes (SSE, or any incremental body): the edge's headers (request id, rate limit) are
 * kept, each write waits for the socket to drain when its buffer is full (a slow reader never makes the process
 * buffer without bound), a comment keeps a silent stream alive, and a client that went away only stops the
 * writing: `closed` tells the caller, whose work goes on.
 */
export class EventStream {
  private gone = false;
  private lastWrite = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly reply: FastifyReply,
    status: number,
    headers: Record<string, string>,
    private readonly keepAlive: string | null = ': keep-alive\n\n',
  ) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(status, { ...(reply.getHeaders() as Record<string, string>), ...headers });
    raw.on('close', () => {
      this.gone = true;
    });
    this.timer = setInterval(() => {
      if (this.keepAlive && !this.gone && Date.now() - this.lastWrite >= KEEP_ALIVE_MS) {
        this.lastWrite = Date.now();
        raw.write(this.keepAlive);
      }
    }, 1000);
    this.timer.unref();
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

  end(text?: string): void {
    clearInterval(this.timer);
    if (this.closed) return;
    this.reply.raw.end(text);
  }
}
