import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The upstream model name the fake answers as; the catalog binding and Portkey ask for it. */
export const FAKE_MODEL = 'bench-fake';
const PROMPT_TOKENS = 17;

/** The fixed reply's tokens: `word0 word1 ... ` (one token each). */
export const replyTokens = (count: number): string[] => Array.from({ length: count }, (_, i) => `word${i} `);

/** The non-streamed answer, in the shape OpenAI sends. */
function wholeBody(tokens: readonly string[]): string {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1,
    model: FAKE_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: PROMPT_TOKENS,
      completion_tokens: tokens.length,
      total_tokens: PROMPT_TOKENS + tokens.length,
    },
  });
}

/** The streamed answer as SSE frames: one delta per token, usage last (stream_options), then [DONE]. */
function streamFrames(tokens: readonly string[]): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: FAKE_MODEL, choices, ...extra })}\n\n`;
  return [
    ...tokens.map((content, i) =>
      chunk([
        {
          index: 0,
          delta: i === 0 ? { role: 'assistant', content } : { content },
          finish_reason: i === tokens.length - 1 ? 'stop' : null,
        },
      ]),
    ),
    chunk([], {
      usage: {
        prompt_tokens: PROMPT_TOKENS,
        completion_tokens: tokens.length,
        total_tokens: PROMPT_TOKENS + tokens.length,
      },
    }),
    'data: [DONE]\n\n',
  ];
}

/**
 * The fake OpenAI-compatible upstream (run in a child process): `POST /v1/chat/completions`, the JSON request
 * parsed as a real server would, answered at once with `tokens` tokens, whole or (stream: true) as SSE with
 * every frame written on a later turn of the event loop, so concurrent streams interleave as separate reads.
 * Anything else is a 400, so a caller that mangles the request shows up as errors, not as fast answers.
 */
export async function serveFakeUpstream(tokens: number): Promise<string> {
  const words = replyTokens(tokens);
  const whole = wholeBody(words);
  const frames = streamFrames(words);
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let body: { stream?: unknown; messages?: unknown };
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
      } catch {
        body = {};
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || !Array.isArray(body.messages)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad request"}}');
        return;
      }
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(whole);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let next = 0;
      const write = (): void => {
        if (res.destroyed) return;
        res.write(frames[next++]!);
        if (next < frames.length) setImmediate(write);
        else res.end();
      };
      write();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', () => process.send!(process.cpuUsage()));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** Forks `script --upstream <tokens>`; resolves with the child and its base URL (`http://127.0.0.1:<port>/v1`). */
export function startFakeUpstream(
  script: string,
  tokens: number,
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = fork(script, ['--upstream', String(tokens)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (baseUrl: string) => resolve({ child, baseUrl }));
    child.once('exit', (code) => reject(new Error(`fake upstream exited ${String(code)}`)));
  });
}
