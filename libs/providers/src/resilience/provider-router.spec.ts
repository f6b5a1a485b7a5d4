import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MediaInputError,
  ProviderFailure,
  endpointKey,
  type MediaResult,
  type MediaTask,
  type ModelBinding,
  type ModelRoute,
} from '@gen/contracts';
import { createLogger } from '@gen/core';
import { Metrics } from '@gen/observability';
import { metricValue } from '@gen/testing';
import { OpenAiChatAdapter } from '../chat/openai-chat.adapter';
import { UpstreamError, errorKindForStatus, retryAfterMs } from '../chat/upstream-error';
import { ProviderRegistry } from '../registry/provider-registry';
import { apiKeyOf, integerSetting, stringSetting, type AdapterFactory } from '../registry/upstream-adapter';
import { FakeUpstream, drain, sseFrame } from '../testing/fake-upstream';
import { MemoryCircuitState } from './circuit-state';
import { ProviderRouter } from './provider-router';
import { circuitMetrics } from './circuit-metrics';

/** What the media fake answers to one request. */
interface MediaReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/** A real HTTP media upstream: `POST /generate` answers with the next queued reply (200 "png-bytes" when none). */
class MediaFake {
  readonly requests: { body: Record<string, unknown>; at: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly replies: MediaReply[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<MediaFake> {
    const server = createServer();
    const fake = new MediaFake(server);
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        fake.requests.push({ body: JSON.parse(Buffer.concat(parts).toString('utf8')), at: Date.now() });
        fake.inFlight += 1;
        fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
        const reply = fake.replies.shift() ?? { body: 'png-bytes' };
        res.on('error', () => undefined);
        const timer = setTimeout(() => {
          fake.timers.delete(timer);
          fake.inFlight -= 1;
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, {
            'content-type': 'application/octet-stream',
            ...reply.headers,
          });
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
        fake.timers.add(timer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(...replies: MediaReply[]): void {
    this.replies.push(...replies);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The test's media adapter: one wire format (`POST {baseUrl}/generate`, the bytes back), errors as UpstreamErrors
 * the way the real adapters classify them. A body of `simulate-failure` is the upstream reporting a failed
 * generation (what the offline models do), returned as a failed MediaResult.
 */
const mediaAdapter: AdapterFactory = (binding, environment) => ({
  async generate(task, signal): Promise<MediaResult> {
    let response: Response;
    let bytes: Buffer;
    try {
      response = await fetch(`${stringSetting(binding, 'baseUrl', '')}/generate`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${apiKeyOf(binding, environment)}`,
        },
        body: JSON.stringify({ model: binding.upstreamModel, input: task.input }),
        signal,
      });
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new UpstreamError('retryable', 'connection to the upstream failed', {
        upstreamText: String(error),
      });
    }
    const text = bytes.toString('utf8');
    if (!response.ok) {
      throw new UpstreamError(
        errorKindForStatus(response.status, text),
        `the upstream answered ${response.status}`,
        {
          status: response.status,
          retryAfterMs: retryAfterMs(response.headers),
          upstreamText: text,
        },
      );
    }
    if (text === 'simulate-failure') return { status: 'failed', errorCode: 'upstream_failed' };
    return { status: 'succeeded', files: [{ bytes }], assets: 'ready' };
  },
});

const chatAdapter: AdapterFactory = (binding, environment) =>
  new OpenAiChatAdapter({
    baseUrl: stringSetting(binding, 'baseUrl', ''),
    apiKey: apiKeyOf(binding, environment),
    upstreamModel: binding.upstreamModel,
    timeoutMs: integerSetting(binding, 'timeoutMs', 120_000),
  });

/** Records the port's calls while keeping its real behaviour. */
class RecordingCircuits extends MemoryCircuitState {
  readonly opened: { endpoint: string; untilMs: number; at: number }[] = [];
  readonly closed: string[] = [];
  override markOpen(endpoint: string, untilMs: number): Promise<void> {
    this.opened.push({ endpoint, untilMs, at: Date.now() });
    return super.markOpen(endpoint, untilMs);
  }
  override markClosed(endpoint: string): Promise<void> {
    this.closed.push(endpoint);
    return super.markClosed(endpoint);
  }
}

const media = (baseUrl: string, settings: Record<string, unknown> = {}, model = 'up-img'): ModelBinding => ({
  adapter: 'test-media',
  upstreamModel: model,
  credentials: ['MEDIA_KEY'],
  settings: { baseUrl, ...settings },
});
const chat = (baseUrl: string, settings: Record<string, unknown> = {}): ModelBinding => ({
  adapter: 'openai-chat',
  upstreamModel: 'up-chat',
  credentials: ['CHAT_KEY'],
  settings: { baseUrl, ...settings },
});

const chunk = (delta: unknown, finish: string | null = null): string =>
  sseFrame({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const GOOD_STREAM = [chunk({ content: 'Hel' }), chunk({ content: 'lo' }, 'stop'), 'data: [DONE]\n\n'];
const REQUEST = { messages: [{ role: 'user' as const, content: 'hi' }], stream: true };

describe('ProviderRouter against real HTTP upstreams', () => {
  let fakes: MediaFake[];
  let chatFake: FakeUpstream;
  let routes: Record<string, ModelRoute>;
  let circuits: RecordingCircuits;
  let router: ProviderRouter;
  let logLines: Record<string, unknown>[];
  let sleeps: number[];

  const task = (model: string, deadlineInMs = 60_000): MediaTask => ({
    taskId: 'task_1',
    model,
    input: { prompt: 'a red fox' },
    deadlineAt: new Date(Date.now() + deadlineInMs).toISOString(),
  });
  const route = (model: string, modality: ModelRoute['modality'], ...bindings: ModelBinding[]): void => {
    routes[model] = { model, modality, bindings };
  };
  const signal = (): AbortSignal => new AbortController().signal;

  beforeEach(async () => {
    fakes = [await MediaFake.start(), await MediaFake.start()];
    chatFake = await FakeUpstream.start();
    routes = {};
    circuits = new RecordingCircuits();
    logLines = [];
    sleeps = [];
    const environment = { credential: (name: string) => ({ MEDIA_KEY: 'mk', CHAT_KEY: 'ck' })[name] };
    router = new ProviderRouter({
      routes: { routeFor: (id) => routes[id] ?? null },
      registry: new ProviderRegistry({ 'test-media': mediaAdapter, 'openai-chat': chatAdapter }, environment),
      circuits,
      logger: createLogger('info', { write: (line: string) => void logLines.push(JSON.parse(line)) }),
      random: () => 0, // no jitter: a wait is exactly the Retry-After (or 0)
      sleep: (ms, s) => {
        sleeps.push(ms);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          s.addEventListener('abort', () => (clearTimeout(timer), reject(s.reason)), { once: true });
        });
      },
    });
  });
  afterEach(async () => {
    router.close();
    await Promise.all([...fakes.map((fake) => fake.close()), chatFake.close()]);
  });

  describe('generate', () => {
    it('returns the upstream bytes of one request', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl));
      fakes[0]!.reply({ body: 'the-image' });
      const result = await router.generate(task('img'), signal());
      expect(result).toEqual({
        status: 'succeeded',
        files: [{ bytes: Buffer.from('the-image') }],
        assets: 'ready',
      });
      expect(fakes[0]!.requests.map((r) => r.body)).toEqual([
        { model: 'up-img', input: { prompt: 'a red fox' } },
      ]);
      expect(router.canRun('img')).toBe(true);
      expect(router.canRun('unknown')).toBe(false);
    });

    it('retries a 429 after at least its Retry-After, then succeeds', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl));
      fakes[0]!.reply(
        { status: 429, headers: { 'retry-after': '1' }, body: '{"error":"slow down"}' },
        { body: 'ok' },
      );
      const result = await router.generate(task('img'), signal());
      expect(result.status).toBe('succeeded');
      const [first, second] = fakes[0]!.requests;
      expect(fakes[0]!.requests).toHaveLength(2);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
      expect(sleeps).toEqual([1000]);
    });

    it('never retries a 400, and 400s do not open the breaker', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl, { breakerVolume: 2 }));
      fakes[0]!.reply(...Array.from({ length: 4 }, () => ({ status: 400, body: '{"error":"bad size"}' })));
      for (let i = 0; i < 4; i += 1) {
        expect(await router.generate(task('img'), signal())).toEqual({
          status: 'failed',
          errorCode: 'upstream_failed',
        });
      }
      expect(fakes[0]!.requests).toHaveLength(4); // one per call
      expect(sleeps).toEqual([]);
      expect(router.canRun('img')).toBe(true);
      expect(circuits.opened).toEqual([]);
    });

    it('a content refusal is content_rejected, not retried; its text reaches only the log', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl));
      const refusal = '{"error":{"code":"content_policy_violation","message":"secret upstream wording"}}';
      fakes[0]!.reply({ status: 400, body: refusal });
      const result = await router.generate(task('img'), signal());
      expect(result).toEqual({ status: 'failed', errorCode: 'content_rejected' });
      expect(JSON.stringify(result)).not.toContain('secret upstream wording');
      expect(fakes[0]!.requests).toHaveLength(1);
      const warn = logLines.find((line) => line['level'] === 'warn')!;
      expect(warn).toMatchObject({
        model: 'img',
        adapter: 'test-media',
        endpoint: `test-media ${fakes[0]!.baseUrl}`,
        status: 400,
        attempt: 1,
        upstream: refusal,
      });
    });

    it('a 500 burst opens the breaker: the next call goes to the fallback, a model without one cannot run', async () => {
      const settings = { breakerVolume: 3, maxAttempts: 1 };
      const first = media(fakes[0]!.baseUrl, settings);
      route('img', 'image', first, media(fakes[1]!.baseUrl));
      route('img-solo', 'image', media(fakes[0]!.baseUrl, settings, 'other-upstream-model')); // same server
      fakes[0]!.reply(...Array.from({ length: 3 }, () => ({ status: 500, body: 'oops' })));
      for (let i = 0; i < 3; i += 1) {
        expect(await router.generate(task('img'), signal())).toEqual({
          status: 'failed',
          errorCode: 'upstream_failed',
        });
      }
      const endpoint = endpointKey(first);
      expect(circuits.isOpen(endpoint)).toBe(true);
      expect(circuits.opened.map((o) => o.endpoint)).toEqual([endpoint]);
      expect(circuits.opened[0]!.untilMs - circuits.opened[0]!.at).toBeGreaterThanOrEqual(29_000); // default reset

      fakes[1]!.reply({ body: 'from-fallback' });
      const result = await router.generate(task('img'), signal());
      expect(result).toEqual({
        status: 'succeeded',
        files: [{ bytes: Buffer.from('from-fallback') }],
        assets: 'ready',
      });
      expect(fakes[0]!.requests).toHaveLength(3);
      expect(fakes[1]!.requests).toHaveLength(1);
      expect(router.canRun('img')).toBe(true);
      expect(router.canRun('img-solo')).toBe(false);
      expect(await router.generate(task('img-solo'), signal())).toEqual({
        status: 'failed',
        errorCode: 'upstream_failed',
      });
      expect(fakes[0]!.requests).toHaveLength(3); // failed fast, nothing sent
    });

    it('moves to the fallback within one call when the breaker opens between its attempts', async () => {
      route(
        'img',
        'image',
        media(fakes[0]!.baseUrl, { breakerVolume: 2, maxAttempts: 3 }),
        media(fakes[1]!.baseUrl),
      );
      fakes[0]!.reply({ status: 503, body: 'down' }, { status: 503, body: 'down' });
      const result = await router.generate(task('img'), signal());
      expect(result.status).toBe('succeeded');
      expect([fakes[0]!.requests.length, fakes[1]!.requests.length]).toEqual([2, 1]);
    });

    it('recovers through half-open after breakerResetMs: a good probe closes it and clears the mark (and the metric follows)', async () => {
      const binding = media(fakes[0]!.baseUrl, { breakerVolume: 2, breakerResetMs: 200, maxAttempts: 1 });
      route('img', 'image', binding);
      fakes[0]!.reply({ status: 502, body: 'x' }, { status: 502, body: 'x' });
      const metrics = new Metrics({ processMetrics: false });
      circuitMetrics(metrics, router.breakers);
      const state = async (s: string) =>
        metricValue(await metrics.render(), 'provider_circuit_state', {
          endpoint: endpointKey(binding),
          state: s,
        });
      expect(await metrics.render()).not.toContain('provider_circuit_state'); // not called yet
      await router.generate(task('img'), signal());
      expect([await state('closed'), await state('open'), await state('half_open')]).toEqual([1, 0, 0]);
      await router.generate(task('img'), signal());
      expect(router.canRun('img')).toBe(false);
      expect(circuits.isOpen(endpointKey(binding))).toBe(true);
      expect(circuits.opened[0]!.untilMs - circuits.opened[0]!.at).toBeLessThanOrEqual(200);
      expect(router.breakers.states()).toEqual([{ endpoint: endpointKey(binding), state: 'open' }]);
      expect([await state('closed'), await state('open'), await state('half_open')]).toEqual([0, 1, 0]);
      expect(await router.generate(task('img'), signal())).toEqual({
        status: 'failed',
        errorCode: 'upstream_failed',
      });
      expect(fakes[0]!.requests).toHaveLength(2); // refused while open

      await new Promise((resolve) => setTimeout(resolve, 260));
      expect(router.canRun('img')).toBe(true);
      expect(circuits.closed).toEqual([]);
      expect([await state('closed'), await state('open'), await state('half_open')]).toEqual([0, 0, 1]);
      fakes[0]!.reply({ body: 'back' });
      expect((await router.generate(task('img'), signal())).status).toBe('succeeded');
      expect([await state('closed'), await state('open'), await state('half_open')]).toEqual([1, 0, 0]);
      expect(circuits.closed).toEqual([endpointKey(binding)]);
      expect(circuits.isOpen(endpointKey(binding))).toBe(false);
      expect(router.breakers.isOpen(binding)).toBe(false);
      expect(router.breakers.admits(binding)).toBe(true);
    });

    it('a failed probe opens the breaker again', async () => {
      const binding = media(fakes[0]!.baseUrl, { breakerVolume: 1, breakerResetMs: 150, maxAttempts: 1 });
      route('img', 'image', binding);
      fakes[0]!.reply({ status: 500 }, { status: 500 });
      await router.generate(task('img'), signal());
      await new Promise((resolve) => setTimeout(resolve, 200));
      await router.generate(task('img'), signal());
      expect(fakes[0]!.requests).toHaveLength(2);
      expect(circuits.opened).toHaveLength(2);
      expect(router.canRun('img')).toBe(false);
      expect(circuits.closed).toEqual([]);
    });

    it('a slow first byte beyond timeoutMs is retried, then fails', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl, { timeoutMs: 150, maxAttempts: 2 }));
      fakes[0]!.reply({ delayMs: 1000, body: 'late' }, { delayMs: 1000, body: 'late' });
      const started = Date.now();
      const result = await router.generate(task('img'), signal());
      expect(result).toEqual({ status: 'failed', errorCode: 'upstream_failed' });
      // Without the timeout, two attempts would take the upstream's 2 x 1000 ms; loaded machines need room.
      expect(Date.now() - started).toBeLessThan(1800);
      expect(fakes[0]!.requests).toHaveLength(2);
      const warns = logLines.filter((line) => line['level'] === 'warn' && line['attempt'] !== undefined);
      expect(warns.map((w) => [w['attempt'], w['msg']])).toEqual([
        [1, 'upstream attempt failed: the upstream did not answer within 150 ms'],
        [2, 'upstream attempt failed: the upstream did not answer within 150 ms'],
      ]);
    });

    it('starts no retry past the deadline', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl));
      fakes[0]!.reply({ status: 503, headers: { 'retry-after': '2' }, body: 'busy' });
      const started = Date.now();
      const result = await router.generate(task('img', 1500), signal());
      expect(result).toEqual({ status: 'failed', errorCode: 'upstream_failed' });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(fakes[0]!.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);

      expect(await router.generate(task('img', -1), signal())).toEqual({
        status: 'failed',
        errorCode: 'upstream_failed',
      });
      expect(fakes[0]!.requests).toHaveLength(1); // a task past its deadline sends nothing
    });

    it('an aborted signal rejects with its reason, also during a retry wait', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl));
      fakes[0]!.reply({ status: 429, headers: { 'retry-after': '5' } });
      const controller = new AbortController();
      const reason = new Error('runner stopping');
      const run = router.generate(task('img'), controller.signal);
      setTimeout(() => controller.abort(reason), 200);
      await expect(run).rejects.toBe(reason);
      expect(fakes[0]!.requests).toHaveLength(1);
    });

    it("passes an adapter's own failed result through: not retried, not counted by the breaker", async () => {
      route('img', 'image', media(fakes[0]!.baseUrl, { breakerVolume: 2 }));
      fakes[0]!.reply(...Array.from({ length: 3 }, () => ({ body: 'simulate-failure' })));
      for (let i = 0; i < 3; i += 1) {
        expect(await router.generate(task('img'), signal())).toEqual({
          status: 'failed',
          errorCode: 'upstream_failed',
        });
      }
      expect(fakes[0]!.requests).toHaveLength(3);
      expect(router.canRun('img')).toBe(true);
    });

    it('skips a binding whose credentials are not set, and one whose adapter is unknown', async () => {
      const noKey = { ...media(fakes[0]!.baseUrl), credentials: ['UNSET_KEY'] };
      const unknown = { ...media(fakes[0]!.baseUrl), adapter: 'nobody' };
      route('img', 'image', noKey, unknown, media(fakes[1]!.baseUrl));
      route('img-none', 'image', noKey, unknown);
      expect((await router.generate(task('img'), signal())).status).toBe('succeeded');
      expect([fakes[0]!.requests.length, fakes[1]!.requests.length]).toEqual([0, 1]);
      expect(router.canRun('img-none')).toBe(false);
      expect(await router.generate(task('img-none'), signal())).toEqual({
        status: 'failed',
        errorCode: 'upstream_failed',
      });
    });

    it('another process marking the circuit open moves calls to the fallback until the mark expires', async () => {
      const first = media(fakes[0]!.baseUrl);
      route('img', 'image', first, media(fakes[1]!.baseUrl));
      route('img-solo', 'image', first);
      await circuits.markOpen(endpointKey(first), Date.now() + 150);
      expect(router.canRun('img-solo')).toBe(false);
      await router.generate(task('img'), signal());
      expect([fakes[0]!.requests.length, fakes[1]!.requests.length]).toEqual([0, 1]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(router.canRun('img-solo')).toBe(true);
      await router.generate(task('img'), signal());
      expect([fakes[0]!.requests.length, fakes[1]!.requests.length]).toEqual([1, 1]);
    });

    it('with maxConcurrency 2, five calls wait their turn: at most 2 at the upstream, all 5 succeed', async () => {
      route('img', 'image', media(fakes[0]!.baseUrl, { maxConcurrency: 2 }));
      fakes[0]!.reply(...Array.from({ length: 5 }, (_, i) => ({ delayMs: 80, body: `img-${i}` })));
      const results = await Promise.all(
        Array.from({ length: 5 }, () => router.generate(task('img'), signal())),
      );
      expect(results.map((r) => r.status)).toEqual(Array(5).fill('succeeded'));
      expect(fakes[0]!.requests).toHaveLength(5);
      expect(fakes[0]!.maxInFlight).toBe(2);
      expect(router.limits.usage(endpointKey(media(fakes[0]!.baseUrl)))).toEqual({ active: 0, waiting: 0 });
    });
  });

  describe('chat', () => {
    it('streams the canonical events', async () => {
      route('llm', 'text', chat(chatFake.baseUrl));
      chatFake.reply({ chunks: GOOD_STREAM });
      const { events, error } = await drain(router.chat('llm', REQUEST, signal()));
      expect(error).toBeUndefined();
      expect(events).toEqual([
        { type: 'text', delta: 'Hel' },
        { type: 'text', delta: 'lo' },
        { type: 'finish', reason: 'stop' },
      ]);
      expect(chatFake.requests[0]!.headers.authorization).toBe('Bearer ck');
    });

    it("reads a caller's image once, before the attempts, and sends its bytes on each", async () => {
      route('llm', 'text', chat(chatFake.baseUrl));
      chatFake.reply({ status: 500, chunks: ['{"error":"x"}'] }, { chunks: GOOD_STREAM });
      const reads: string[] = [];
      const request = {
        messages: [
          {
            role: 'user' as const,
            content: [{ type: 'image_url' as const, image_url: { url: 'service://files/fil_1' } }],
          },
        ],
      };
      const { error } = await drain(
        router.chat('llm', request, signal(), {
          readImage: async (url) => {
            reads.push(url);
            return { bytes: Buffer.from('PNG!'), contentType: 'image/png' };
          },
        }),
      );
      expect(error).toBeUndefined();
      expect(reads).toEqual(['service://files/fil_1']);
      expect(chatFake.requests).toHaveLength(2);
      for (const sent of chatFake.requests) {
        expect((sent.body['messages'] as { content: unknown }[])[0]!.content).toEqual([
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${Buffer.from('PNG!').toString('base64')}` },
          },
        ]);
      }
    });

    it("an image that cannot be read fails as itself, before any request, and never trips the upstream's breaker", async () => {
      route('llm', 'text', chat(chatFake.baseUrl, { breakerVolume: 1, maxAttempts: 1 }));
      const request = {
        messages: [
          {
            role: 'user' as const,
            content: [{ type: 'image_url' as const, image_url: { url: 'service://files/fil_gone' } }],
          },
        ],
      };
      const failing = {
        readImage: () => Promise.reject(new MediaInputError('input_unavailable', 'no such file')),
      };
      for (let i = 0; i < 3; i += 1) {
        const { error } = await drain(router.chat('llm', request, signal(), failing));
        expect(error).toBeInstanceOf(MediaInputError);
        expect((error as MediaInputError).errorCode).toBe('input_unavailable');
      }
      expect(chatFake.requests).toHaveLength(0);
      expect(circuits.opened).toEqual([]);
      chatFake.reply({ chunks: GOOD_STREAM });
      expect((await drain(router.chat('llm', REQUEST, signal()))).error).toBeUndefined();
    });

    it('retries a 500 and a drop that come before the first event', async () => {
      route('llm', 'text', chat(chatFake.baseUrl));
      chatFake.reply(
        { status: 500, chunks: ['{"error":"x"}'] },
        { chunks: [], drop: true },
        { chunks: GOOD_STREAM },
      );
      const { events, error } = await drain(router.chat('llm', REQUEST, signal()));
      expect(error).toBeUndefined();
      expect(events).toHaveLength(3);
      expect(chatFake.requests).toHaveLength(3);
    });

    it('a drop after the first event is not retried: the stream ends with a ProviderFailure', async () => {
      route('llm', 'text', chat(chatFake.baseUrl, { maxAttempts: 3 }));
      chatFake.reply({ chunks: [chunk({ content: 'Hel' })], drop: true }, { chunks: GOOD_STREAM });
      const { events, error } = await drain(router.chat('llm', REQUEST, signal()));
      expect(events).toEqual([{ type: 'text', delta: 'Hel' }]);
      expect(error).toBeInstanceOf(ProviderFailure);
      expect((error as ProviderFailure).errorCode).toBe('upstream_failed');
      expect(chatFake.requests).toHaveLength(1);
      expect(router.limits.usage(endpointKey(chat(chatFake.baseUrl)))).toEqual({ active: 0, waiting: 0 });
    });

    it('a content refusal ends with content_rejected after one request', async () => {
      route('llm', 'text', chat(chatFake.baseUrl));
      chatFake.reply({ status: 400, chunks: ['{"error":{"code":"content_filter","message":"no"}}'] });
      const { events, error } = await drain(router.chat('llm', REQUEST, signal()));
      expect(events).toEqual([]);
      expect((error as ProviderFailure).errorCode).toBe('content_rejected');
      expect((error as ProviderFailure).message).toBe('the upstream refused the content');
      expect(chatFake.requests).toHaveLength(1);
    });

    it('a first event later than timeoutMs is retried, then fails', async () => {
      route('llm', 'text', chat(chatFake.baseUrl, { timeoutMs: 150, maxAttempts: 2 }));
      // First bytes far beyond two attempts' timeouts and backoff (about 0.4 s), so that a loaded machine's
      // slowness cannot pass for waiting on them (CI once took 732 ms against a 700 ms first byte).
      chatFake.reply(
        { firstByteDelayMs: 2500, chunks: GOOD_STREAM },
        { firstByteDelayMs: 2500, chunks: GOOD_STREAM },
      );
      const started = Date.now();
      const { events, error } = await drain(router.chat('llm', REQUEST, signal()));
      expect(events).toEqual([]);
      expect((error as ProviderFailure).errorCode).toBe('upstream_failed');
      expect(chatFake.requests).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('holds its slot until the consumer stops reading', async () => {
      route('llm', 'text', chat(chatFake.baseUrl, { maxConcurrency: 1 }));
      chatFake.reply(
        { chunks: [chunk({ content: 'A' }), ...Array(200).fill(': keep-alive\n\n')] },
        { chunks: GOOD_STREAM },
      );
      const first = router.chat('llm', REQUEST, signal())[Symbol.asyncIterator]();
      expect(await first.next()).toEqual({ done: false, value: { type: 'text', delta: 'A' } });
      const second = drain(router.chat('llm', REQUEST, signal()));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(chatFake.requests).toHaveLength(1); // the second waits for the slot
      await first.return!(undefined);
      const { events, error } = await second;
      expect(error).toBeUndefined();
      expect(events).toHaveLength(3);
      expect(chatFake.requests).toHaveLength(2);
    });

    it('an aborted signal ends the stream with its reason', async () => {
      route('llm', 'text', chat(chatFake.baseUrl));
      chatFake.reply({ firstByteDelayMs: 600, chunks: GOOD_STREAM });
      const controller = new AbortController();
      const reason = new Error('client went away');
      // Aborts once the upstream has the request (and before its first byte, 600 ms later): a fixed 100 ms
      // could pass before a loaded machine had even sent it.
      const aborted = (async () => {
        while (chatFake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort(reason);
      })();
      const { error } = await drain(router.chat('llm', REQUEST, controller.signal));
      await aborted;
      expect(error).toBe(reason);
      expect(chatFake.requests).toHaveLength(1);
    });

    it('an abort after the first event still reaches the stream: it ends with the reason, the slot is freed', async () => {
      const binding = chat(chatFake.baseUrl, { maxConcurrency: 1 });
      route('llm', 'text', binding);
      chatFake.reply({ chunks: [chunk({ content: 'A' })], holdOpen: true });
      const controller = new AbortController();
      const stream = router.chat('llm', REQUEST, controller.signal)[Symbol.asyncIterator]();
      expect(await stream.next()).toEqual({ done: false, value: { type: 'text', delta: 'A' } });
      const reason = new Error('client went away');
      controller.abort(reason);
      await expect(stream.next()).rejects.toBe(reason);
      expect(router.limits.usage(endpointKey(binding))).toEqual({ active: 0, waiting: 0 });
    });

    it('an unknown model or no usable binding fails with upstream_failed, sending nothing', async () => {
      route('llm', 'text', { ...chat(chatFake.baseUrl), credentials: ['UNSET_KEY'] });
      for (const model of ['llm', 'missing']) {
        const { error } = await drain(router.chat(model, REQUEST, signal()));
        expect((error as ProviderFailure).errorCode).toBe('upstream_failed');
      }
      expect(chatFake.requests).toHaveLength(0);
    });
  });
});
