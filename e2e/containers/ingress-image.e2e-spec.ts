import { FLEET_APPS } from '@gen/contracts';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../support/app-process';
import { withImage } from '../support/containers';

/** The ingress image `npm run images:build -- --bases debian` makes (Debian's nginx). */
const IMAGE = 'localhost/nginx:bookworm';
const CONF = join(__dirname, '..', '..', 'docker', 'ingress', 'nginx.conf');

const { engine, describe: describeWithImage } = withImage(IMAGE);

/** Sends a request's head declaring `length` bytes and a few of them; resolves with what came back. */
function declare(port: number, path: string, length: number): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 3 s: ${JSON.stringify(answer)}`));
    }, 3000);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      // The whole JSON body is there: done (nginx may keep reading what the client sends).
      if (/\r\n\r\n\{.*\}$/s.test(answer)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ answer, ms: Date.now() - started });
      }
    });
    socket.on('error', () => undefined);
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n{"a":"x`,
    );
  });
}

/**
 * The compose fleet's ingress as compose runs it: nginx with docker/ingress/nginx.conf, the fleet's apps named as
 * its upstreams (here on the loopback, none listening: nothing below reaches them).
 */
describeWithImage('the nginx ingress image', () => {
  const name = `gts-e2e-ingress-${randomBytes(4).toString('hex')}`;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    const hosts = FLEET_APPS.flatMap((app) => ['--add-host', `${app}:127.0.0.1`]);
    execFileSync(engine!, [
      'run',
      '-d',
      '--name',
      name,
      '-p',
      `127.0.0.1:${port}:80`,
      ...hosts,
      '-v',
      `${CONF}:/etc/nginx/conf.d/default.conf:ro`,
      IMAGE,
    ]);
    for (let i = 0; ; i += 1) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) break;
      if (i > 100)
        throw new Error(
          `nginx did not listen:\n${execFileSync(engine!, ['logs', name], { encoding: 'utf8' })}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(() => {
    spawnSync(engine!, ['rm', '-f', name], { stdio: 'ignore' });
  });

  it('refuses a body declared over its limit at once, unread, with 413 in the envelope', async () => {
    for (const path of ['/api/v1/jobs/createTask', '/v1/chat/completions']) {
      const { answer, ms } = await declare(port, path, 64 * 1024 * 1024);
      expect(ms).toBeLessThan(1500);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain('content-type: application/json');
      const requestId = /x-request-id: ([0-9a-f]{32})/i.exec(answer)?.[1];
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(body).toEqual({
        code: 413,
        msg: 'The request body is too large. The limit is 16777216 bytes.',
        request_id: requestId,
      });
    }
  });
});
