import { ScriptedServer, type ScriptedReply, type SeenRequest } from './scripted-server';

/**
 * A fake OpenAI-style images upstream on a real HTTP server: `POST /v1/images/generations` answers with the
 * queued replies in order (built with the helpers below), and files it serves itself live at `/files/...`.
 */
export class FakeImagesUpstream {
  private constructor(readonly server: ScriptedServer) {}

  static async start(): Promise<FakeImagesUpstream> {
    return new FakeImagesUpstream(await ScriptedServer.start());
  }

  /** What a binding's `baseUrl` setting is set to. */
  get baseUrl(): string {
    return `${this.server.origin}/v1`;
  }

  /** The generation requests received. */
  get generations(): SeenRequest[] {
    return this.server.requestsTo('/v1/images/generations');
  }

  /** Queues answers to the next generation requests. */
  answer(...replies: ScriptedReply[]): void {
    this.server.queue('POST', '/v1/images/generations', ...replies);
  }

  /** A success with the images inline (`response_format: b64_json`). */
  static b64(images: readonly Buffer[]): ScriptedReply {
    return {
      body: { created: 1_700_000_000, data: images.map((b) => ({ b64_json: b.toString('base64') })) },
    };
  }

  /** A success pointing at URLs (the fake's own files, or anywhere). */
  static urls(urls: readonly string[]): ScriptedReply {
    return {
      body: { created: 1_700_000_000, data: urls.map((url) => ({ url, revised_prompt: 'revised' })) },
    };
  }

  /** Serves the images at `/files/image-<i>.png` and answers with their URLs. */
  served(images: readonly Buffer[]): ScriptedReply {
    return FakeImagesUpstream.urls(
      images.map((b, i) => this.server.serveFile(`image-${i}.png`, b, 'image/png')),
    );
  }

  /** OpenAI's error body: `{"error":{"message","type","param","code"}}`. */
  static error(
    status: number,
    error: { message: string; type: string; code?: string | null },
    headers?: Record<string, string>,
  ): ScriptedReply {
    return { status, headers, body: { error: { param: null, code: null, ...error } } };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
