import { ScriptedServer, type ScriptedReply, type SeenRequest } from './scripted-server';

/** How a created prediction goes: `polls` answers of `processing`, then its final state. */
export interface PredictionScript {
  polls?: number;
  final:
    { status: 'succeeded'; output: unknown } | { status: 'failed'; error: string } | { status: 'canceled' };
  /** Replies served to the first polls instead of the prediction (an error, a slow answer); they count as polls. */
  pollReplies?: ScriptedReply[];
  /** The `urls` the prediction names (default: the fake's own get and cancel URLs). */
  urls?: Record<string, string>;
}

interface LivePrediction {
  id: string;
  script: PredictionScript;
  body: Record<string, unknown>;
  polls: number;
  canceled: boolean;
}

/**
 * A fake Replicate API (`/v1/models/{owner}/{name}/predictions`, `/v1/predictions`, `GET /v1/predictions/{id}`,
 * `POST /v1/predictions/{id}/cancel`) and a fake Cog server (`POST /predictions`, `POST /predictions/{id}/cancel`)
 * on one real HTTP server. Each created prediction follows the next queued script; a queued ScriptedReply (an
 * HTTP error) is served instead of creating one. Files live at `/files/...`.
 */
export class FakeReplicate {
  private readonly scripts: (PredictionScript | ScriptedReply)[] = [];
  private readonly cogReplies: ScriptedReply[] = [];
  private readonly predictions = new Map<string, LivePrediction>();

  private constructor(readonly server: ScriptedServer) {}

  static async start(): Promise<FakeReplicate> {
    const fake = new FakeReplicate(await ScriptedServer.start());
    fake.server.route((r) => fake.answer(r));
    return fake;
  }

  /** The Replicate API's base URL (with /v1). */
  get baseUrl(): string {
    return `${this.server.origin}/v1`;
  }

  /** A Cog server's base URL. */
  get cogBaseUrl(): string {
    return this.server.origin;
  }

  /** Queues how the next predictions go (or the HTTP error their creation gets). */
  predict(...scripts: (PredictionScript | ScriptedReply)[]): void {
    this.scripts.push(...scripts);
  }

  /** Queues the Cog server's next answers to `POST /predictions`. */
  cog(...replies: ScriptedReply[]): void {
    this.cogReplies.push(...replies);
  }

  /** The creation requests received (both APIs). */
  get created(): SeenRequest[] {
    return this.server.requests.filter((r) => r.method === 'POST' && /\/predictions$/.test(r.path));
  }

  pollsOf(id: string): number {
    return this.server.requests.filter((r) => r.method === 'GET' && r.path === `/v1/predictions/${id}`)
      .length;
  }

  /** The ids of the predictions a cancel was received for, in order. */
  get cancels(): string[] {
    return this.server.requests
      .map((r) =>
        r.method === 'POST' ? /^(?:\/v1)?\/predictions\/([^/]+)\/cancel$/.exec(r.path)?.[1] : undefined,
      )
      .filter((id): id is string => id !== undefined);
  }

  serveFile(name: string, bytes: Buffer, contentType?: string): string {
    return this.server.serveFile(name, bytes, contentType);
  }

  /** Replicate's error body: `{"title","detail","status"}`. */
  static error(status: number, detail: string, headers?: Record<string, string>): ScriptedReply {
    return { status, headers, body: { title: 'Error', detail, status } };
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private answer(request: SeenRequest): ScriptedReply | undefined {
    const { method, path } = request;
    if (
      method === 'POST' &&
      (path === '/v1/predictions' || /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(path))
    ) {
      return this.create(request);
    }
    if (method === 'POST' && path === '/predictions') {
      return this.cogReplies.shift() ?? { status: 599, body: { detail: 'no Cog reply queued' } };
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const live = this.predictions.get(cancel[1]!);
      if (!live) return FakeReplicate.error(404, 'Not found.');
      live.canceled = true;
      return { body: this.view(live) };
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (method === 'GET' && get) {
      const live = this.predictions.get(get[1]!);
      if (!live) return FakeReplicate.error(404, 'Not found.');
      const injected = live.script.pollReplies?.[live.polls];
      live.polls++;
      return injected ?? { body: this.view(live) };
    }
    if (method === 'POST' && /^\/predictions\/[^/]+\/cancel$/.test(path)) return { body: {} };
    return undefined;
  }

  private create(request: SeenRequest): ScriptedReply {
    const script = this.scripts.shift();
    if (!script) return { status: 599, body: { detail: 'no prediction script queued' } };
    if (!('final' in script)) return script;
    const id = `pred${this.predictions.size + 1}`;
    const live = { id, script, body: request.body as Record<string, unknown>, polls: 0, canceled: false };
    this.predictions.set(id, live);
    return { status: 201, body: { ...this.view(live), status: 'starting' } };
  }

  /** The prediction as the API shows it now. */
  private view(live: LivePrediction): Record<string, unknown> {
    const { script } = live;
    const base = {
      id: live.id,
      version: live.body.version ?? 'v1hash',
      input: live.body.input,
      logs: '',
      output: null,
      error: null,
      created_at: '2026-01-01T00:00:00.000Z',
      urls: script.urls ?? {
        get: `${this.baseUrl}/predictions/${live.id}`,
        cancel: `${this.baseUrl}/predictions/${live.id}/cancel`,
      },
    };
    if (live.canceled) return { ...base, status: 'canceled' };
    // Poll k (counting injected replies) answers `processing` while k <= polls, then the final state.
    if (live.polls <= (script.polls ?? 0)) return { ...base, status: 'processing' };
    return { ...base, ...script.final };
  }
}
