/** One block of a Server-Sent Events body as a test reads it: its `event:` name and its joined `data:` lines. */
export interface SseBlock {
  readonly event?: string;
  readonly data: string;
}

/** The blocks of a whole SSE body, in order; comment lines (`: keep-alive`) and comment-only blocks are dropped. */
export function sseBlocks(body: string): SseBlock[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => line !== '' && !line.startsWith(':')))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { ...(event ? { event } : {}), data };
    });
}

/** A block's data as JSON (`{}` for a missing block). */
export const sseJson = (block: SseBlock | undefined): Record<string, unknown> =>
  JSON.parse(block?.data ?? '{}') as Record<string, unknown>;
