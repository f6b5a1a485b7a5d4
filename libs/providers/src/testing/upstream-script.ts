import type { FinishReason } from '@gen/contracts';

/**
 * One answer of a recording upstream, in neutral terms; each upstream renders it in its provider's own streamed
 * form (see recording-upstreams.ts). A string is cut into pieces, one a delta/chunk (text and reasoning in up to
 * three, tool call arguments in up to four fragments, cut between code points, never inside one); an array is
 * sent as those exact pieces.
 */
export interface AnswerScript {
  /** Reasoning blocks, first in the answer. `signature`: Anthropic's thinking signature, Gemini's thoughtSignature. */
  reasoning?: { text: string | string[]; signature?: string }[];
  /** Anthropic redacted_thinking blocks (their opaque `data`), after the reasoning blocks. Anthropic only. */
  redacted?: string[];
  text?: string | string[];
  /**
   * The calls, after the text. `arguments`: the JSON text of the arguments (Gemini sends it parsed, whole, as
   * `args`). `signature`: Gemini's thoughtSignature on the functionCall part (Gemini only).
   */
  toolCalls?: { id: string; name: string; arguments: string | string[]; signature?: string }[];
  finish: FinishReason;
  /**
   * Token counts as ChatUsage counts them: `input` includes `cachedInput`, `output` includes `reasoning`.
   * Each upstream splits them the way its provider reports them.
   */
  usage: { input: number; cachedInput: number; output: number; reasoning: number };
  /** The provider's own finish value instead of the one `finish` maps to (`stop_sequence`, `RECITATION`, ...). */
  nativeFinish?: string;
  /** Anthropic: the matched stop sequence reported with `stop_sequence`. */
  stopSequence?: string;
  /**
   * Instead of finishing, the upstream reports this error inside the stream after the content (an Anthropic
   * `event: error`, an OpenAI `data: {"error":...}` frame, a Gemini `data: {"error":...}` chunk) and ends the
   * response. To a request that does not stream, it is the HTTP error `status` (default 500/529/503).
   */
  streamError?: { message: string; type?: string; code?: string; status?: number };
  /**
   * Stop after the content, before the finish: `hold` keeps the response open until the client goes away (an
   * upstream still generating), `drop` destroys the connection (a mid-stream drop).
   */
  cut?: 'hold' | 'drop';
  /** Wait this long before the status line. */
  delayMs?: number;
}

/** An HTTP error answer, in the provider's own error body. */
export interface ErrorScript {
  status: number;
  message: string;
  /** OpenAI `error.type`, Anthropic `error.type`, Gemini `error.status`; default from the status code. */
  type?: string;
  /** OpenAI `error.code` (default from the status code, else null). */
  code?: string | null;
  /** Gemini `error.details` (e.g. a google.rpc.RetryInfo with `retryDelay`). */
  details?: unknown[];
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A recorded request, as it reached the upstream. */
export interface RecordedUpstreamRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** The path with the query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  body: unknown;
}

/** Throws unless the usage counts are non-negative integers that fit together. */
export function checkScript(script: AnswerScript, provider: string): void {
  const { input, cachedInput, output, reasoning } = script.usage;
  for (const [name, value] of Object.entries(script.usage)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new Error(`${provider} script: usage.${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (cachedInput > input) throw new Error(`${provider} script: usage.cachedInput exceeds usage.input`);
  if (reasoning > output) throw new Error(`${provider} script: usage.reasoning exceeds usage.output`);
}

/** The pieces of a scripted string: the array as given, or the text cut into up to `n` pieces by code points. */
export function piecesOf(text: string | string[] | undefined, n: number): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  const points = Array.from(text);
  if (points.length === 0) return [];
  const count = Math.min(n, points.length);
  const size = Math.ceil(points.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}

export function joined(text: string | string[] | undefined): string {
  return text === undefined ? '' : Array.isArray(text) ? text.join('') : text;
}
