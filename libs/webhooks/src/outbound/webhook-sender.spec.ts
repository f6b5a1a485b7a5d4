import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gen/core';
import { selfSignedCertificate, type TestCertificate } from '@gen/testing';
import { deliveryTrust, WebhookSender } from './webhook-sender';

/** A self-signed certificate for 127.0.0.1 (IP SAN), made with openssl in a temporary folder. */
const certificate = (dir: string): TestCertificate =>
  selfSignedCertificate(dir, '127.0.0.1', ['IP:127.0.0.1']);

describe('WebhookSender', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let caFile: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gts-sender-'));
    const { key, cert, file } = certificate(dir);
    caFile = file;
    server = createServer({ key, cert }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const sender = (env: Record<string, string> = {}) =>
    new WebhookSender(loadConfig({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', ...env }));

  it('trusts a receiver whose CA is in WEBHOOK_CA_FILE, and only then', async () => {
    expect(await sender({ WEBHOOK_CA_FILE: caFile }).send(url, {}, '{"a":1}')).toMatchObject({
      ok: true,
      status: 204,
    });
    expect(bodies).toEqual(['{"a":1}']);
    expect(await sender().send(url, {}, '{"a":2}')).toMatchObject({ ok: false, reason: 'connection' });
    expect(bodies).toHaveLength(1);
  });

  it('stops start-up naming the setting when the file cannot be read', () => {
    expect(() => deliveryTrust(join(dir, 'missing.pem'))).toThrow(/WEBHOOK_CA_FILE/);
    expect(deliveryTrust(undefined)).toBeUndefined();
  });

  it('schedules retries on WEBHOOK_RETRY_SCHEDULE and stops after its last entry', () => {
    const at = new Date('2026-11-25T00:00:00.000Z');
    const schedule = sender({ WEBHOOK_RETRY_SCHEDULE: '10,30' });
    expect(schedule.retryAt(1, at)).toEqual(new Date(at.getTime() + 10_000));
    expect(schedule.retryAt(2, at)).toEqual(new Date(at.getTime() + 30_000));
    expect(schedule.retryAt(3, at)).toBeNull();
  });
});
