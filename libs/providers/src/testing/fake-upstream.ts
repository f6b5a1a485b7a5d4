import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatEvent } from '../chat/chat-adapter';
import { SseParser } from '../chat/sse';
import type { FrameDecoder } from '../chat/upstream-stream';
import { UpstreamError } from '../chat/upstream-error';

/** What the fake upstream answers to one request. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before sending the status line. */
  firstByteDelayMs?: number;
  /** Written one after the other, each in its own write. */
  chunks: (string | Uint8Array)[];
  /** Destroy the socket after the chunks instead of ending the response (a mid-stream drop). */
  drop?: boolean;
  /** Keep the response open after the chunks (an upstream still generating) until the client goes away. */
  holdOpen?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A real HTTP server on 127.0.0.1 answering each request with the next queued reply (a 599 when none is left). */
export class FakeUpstream {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: FakeReply[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeUpstream> {
    const server = createServer();
    const fake = new FakeUpstream(server);
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        fake.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        void answer(res, fake.replies.shift() ?? { status: 599, chunks: ['no reply queued'] });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(...replies: FakeReply[]): void {
    this.replies.push(...replies);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function answer(res: ServerResponse, reply: FakeReply): Promise<void> {
  res.on('error', () => undefined);
  if (reply.firstByteDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.firstByteDelayMs));
  if (res.destroyed) return;
  const status = reply.status ?? 200;
  const type = status === 200 ? 'text/event-stream' : 'application/json';
  res.writeHead(status, { 'content-type': type, ...reply.headers });
  res.flushHeaders();
  for (const chunk of reply.chunks) {
    if (res.destroyed) return;
    res.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  if (reply.drop) res.socket?.destroy();
  else if (!reply.holdOpen) res.end();
}

/** One SSE frame: `event:` when given, the data as one `data:` line (JSON-encoded unless a string). */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${text}\n\n`;
}

/** Every event of a stream, or the error it threw (with the events before it). */
export async function drain(
  stream: AsyncIterable<ChatEvent>,
): Promise<{ events: ChatEvent[]; error?: unknown }> {
  const events: ChatEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** The UpstreamError a stream ends with; fails the test when it ends otherwise. */
export async function upstreamFailure(stream: AsyncIterable<ChatEvent>): Promise<UpstreamError> {
  const { error } = await drain(stream);
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

/** Runs byte chunks through the SSE parser and a decoder, as the adapter does; an error is returned as `error`. */
export function decodeChunks(
  decoder: FrameDecoder,
  chunks: Uint8Array[],
): { events: ChatEvent[]; error?: string } {
  const parser = new SseParser();
  const events: ChatEvent[] = [];
  try {
    for (const chunk of chunks) for (const frame of parser.push(chunk)) events.push(...decoder.decode(frame));
    for (const frame of parser.end()) events.push(...decoder.decode(frame));
    events.push(...decoder.end());
    return { events };
  } catch (error) {
    return { events, error: String(error) };
  }
}

/** The bytes cut at the given offsets (sorted, deduplicated, within range). */
export function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  return chunks;
}
