import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEDIA_INPUTS, MediaInputError, type MediaInputsPort } from '@gen/contracts';
import { selfSignedCertificate } from '@gen/testing';
import { jpegSample, mp4Sample, pngSample, wavSample } from '../testing/media-samples';
import { startMediaApp, upload, type MediaTestApp } from '../testing/media-test-app';

/**
 * Media URLs of task input are fetched like imports: https on port 443, so the sources listen on port 443 of
 * addresses of their own (see import.http.spec.ts). Only SOURCE is allowed by FETCH_ALLOW_PRIVATE_CIDRS.
 */
const SOURCE = '127.0.1.61';
const INTERNAL = '127.0.1.62';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

describe('MEDIA_INPUTS: media fields of a task read to their bytes', () => {
  let app: MediaTestApp;
  let inputs: MediaInputsPort;
  let dir: string;
  let source: Server;
  let internal: Server;
  let internalHits = 0;
  let png: Buffer;
  let jpeg: Buffer;
  const signal = new AbortController().signal;

  const routes: Record<string, Handler> = {
    '/pic.png': (_q, r) => void r.writeHead(200, { 'content-type': 'image/png' }).end(png),
    '/untyped': (_q, r) => void r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png),
    '/moved': (_q, r) => void r.writeHead(302, { location: '/pic.png' }).end(),
    '/to-internal': (_q, r) => void r.writeHead(302, { location: `https://${INTERNAL}/pic.png` }).end(),
    '/spoofed.png': (_q, r) => void r.writeHead(200, { 'content-type': 'image/png' }).end(jpeg),
    '/page.html': (_q, r) => void r.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    '/big.png': (_q, r) =>
      void r.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10 * 1024 * 1024 + 1)),
    '/clip.wav': (_q, r) => void r.writeHead(200, { 'content-type': 'audio/wav' }).end(wavSample(1)),
    '/slow.png': (_q, r) => void r.writeHead(200, { 'content-type': 'image/png' }).write(png.subarray(0, 8)),
  };

  const listen = (server: Server, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(443, host, resolve);
    });

  beforeAll(async () => {
    [png, jpeg] = [await pngSample(20, 10), await jpegSample(12, 8)];
    dir = mkdtempSync(join(tmpdir(), 'gts-media-input-'));
    const cert = selfSignedCertificate(dir, 'media input test', [`IP:${SOURCE}`, `IP:${INTERNAL}`]);
    source = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      const path = (request.url ?? '').split('?')[0]!;
      (routes[path] ?? ((_q, r: ServerResponse) => void r.writeHead(404).end('no')))(request, response);
    });
    internal = createServer({ key: cert.key, cert: cert.cert }, (_request, response) => {
      internalHits += 1;
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await Promise.all([listen(source, SOURCE), listen(internal, INTERNAL)]);
    app = await startMediaApp({ FETCH_ALLOW_PRIVATE_CIDRS: `${SOURCE}/32`, FETCH_CA_FILE: cert.file });
    inputs = app.app.get<MediaInputsPort>(MEDIA_INPUTS);
  });
  afterAll(async () => {
    await app.close();
    source.closeAllConnections();
    internal.closeAllConnections();
    await Promise.all([new Promise((r) => source.close(r)), new Promise((r) => internal.close(r))]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function committed(bytes: Buffer, contentType: string, key = 'gts_owner'): Promise<string> {
    const { fileId, putStatus } = await upload(app, bytes, contentType, { key });
    expect(putStatus).toBe(200);
    const commit = await app.call('POST', `/api/v1/files/${fileId}/commit`, { key });
    expect(commit.status).toBe(200);
    return (commit.json['data'] as { uri: string }).uri;
  }

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it("reads a service:// file of the task's account from object storage", async () => {
    const uri = await committed(png, 'image/png');
    expect(await inputs.resolve('acc_owner', uri, 'image', signal)).toEqual({
      bytes: png,
      contentType: 'image/png',
      width: 20,
      height: 10,
    });
    const clip = mp4Sample(2, 64, 48);
    const video = await committed(clip, 'video/mp4');
    expect(await inputs.resolve('acc_owner', video, 'video', signal)).toEqual({
      bytes: clip,
      contentType: 'video/mp4',
      width: 64,
      height: 48,
      durationSeconds: 2,
    });
  });

  it("refuses another account's file as unavailable, and a file of another kind as invalid", async () => {
    const strangers = await committed(png, 'image/png', 'gts_stranger');
    const error = await failure(inputs.resolve('acc_owner', strangers, 'image', signal));
    expect(error).toBeInstanceOf(MediaInputError);
    expect(error).toMatchObject({ errorCode: 'input_unavailable' });
    const missing = await failure(
      inputs.resolve('acc_owner', 'service://files/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB', 'image', signal),
    );
    expect(missing).toMatchObject({
      errorCode: 'input_unavailable',
      detail: (error as MediaInputError).detail,
    });
    const own = await committed(png, 'image/png');
    expect(await failure(inputs.resolve('acc_owner', own, 'audio', signal))).toMatchObject({
      errorCode: 'input_invalid',
    });
  });

  it('fetches a public https URL (here: the allowed source), following a redirect, and verifies it', async () => {
    for (const path of ['/pic.png', '/untyped', '/moved']) {
      expect(await inputs.resolve('acc_owner', `https://${SOURCE}${path}`, 'image', signal)).toEqual({
        bytes: png,
        contentType: 'image/png',
        width: 20,
        height: 10,
      });
    }
    expect(await inputs.resolve('acc_owner', `https://${SOURCE}/clip.wav`, 'audio', signal)).toMatchObject({
      contentType: 'audio/wav',
      durationSeconds: 1,
    });
  });

  it('refuses a private address, directly or by redirect, without connecting to it', async () => {
    for (const url of [`https://${INTERNAL}/pic.png`, `https://${SOURCE}/to-internal`]) {
      expect(await failure(inputs.resolve('acc_owner', url, 'image', signal))).toMatchObject({
        errorCode: 'input_unavailable',
      });
    }
    expect(internalHits).toBe(0);
  });

  it.each([
    ['/missing.png', 'input_unavailable'], // 404
    ['/big.png', 'input_unavailable'], // over the 10 MiB of images
    ['/page.html', 'input_invalid'],
    ['/spoofed.png', 'input_invalid'], // a JPEG sent as image/png
    ['/clip.wav', 'input_invalid'], // audio for an image field
  ])('fails %s with %s', async (path, errorCode) => {
    expect(
      await failure(inputs.resolve('acc_owner', `https://${SOURCE}${path}`, 'image', signal)),
    ).toMatchObject({
      errorCode,
    });
  });

  it('gives up when the signal aborts, with its reason', async () => {
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(new Error('runner stopping')), 100);
    await expect(
      inputs.resolve('acc_owner', `https://${SOURCE}/slow.png`, 'image', stopping.signal),
    ).rejects.toThrow('runner stopping');
  });
});
