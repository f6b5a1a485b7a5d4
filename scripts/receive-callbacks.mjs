#!/usr/bin/env node
/**
 * npm run receive-callbacks [-- --host 127.0.0.1 --port 80 --secret <signing secret>]
 *
 * A task callback receiver for trying callbacks on this machine: it listens on host:port (callback URLs use port
 * 80 or 443, so 80 by default: root, or a system whose net.ipv4.ip_unprivileged_port_start allows it), answers
 * 200 to every POST, and prints one line per callback: the task, its state, its cost, whether that cost is
 * settled yet, and whether the signature verifies (X-Webhook-Signature: base64 HMAC-SHA256 with the signing
 * secret over `<taskId>.<X-Webhook-Timestamp>.<sha256 hex of the raw body>`, the timestamp within 300 s).
 * The secret: --secret, else `signingSecret` of DATA_DIR/bootstrap.json (the demo account's).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const host = flag('host', '127.0.0.1');
const port = Number(flag('port', '80'));
const bootstrap = join(process.env.DATA_DIR ?? './data', 'bootstrap.json');
const secret =
  flag('secret') ??
  (existsSync(bootstrap) ? JSON.parse(readFileSync(bootstrap, 'utf8')).signingSecret : undefined);
if (!secret) {
  process.stderr.write(`receive-callbacks: no --secret given and ${bootstrap} has no signingSecret\n`);
  process.exit(2);
}

/** Why the signature does not verify, or null when it does. */
function signatureProblem(rawBody, headers, signingSecret, nowSeconds = Date.now() / 1000) {
  const timestamp = headers['x-webhook-timestamp'];
  if (!timestamp || Math.abs(nowSeconds - Number(timestamp)) > 300)
    return 'timestamp missing or over 300 s off';
  let taskId;
  try {
    const body = JSON.parse(rawBody.toString('utf8'));
    taskId = body.data?.taskId ?? body.task_id; // version 2, version 1
  } catch {
    return 'body is not JSON';
  }
  const digest = createHash('sha256').update(rawBody).digest('hex');
  const expected = createHmac('sha256', signingSecret).update(`${taskId}.${timestamp}.${digest}`).digest();
  const given = Buffer.from(String(headers['x-webhook-signature'] ?? ''), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? null
    : 'signature does not match';
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    res.statusCode = req.method === 'POST' ? 200 : 405;
    res.end();
    if (req.method !== 'POST') return;
    const raw = Buffer.concat(chunks);
    const problem = signatureProblem(raw, req.headers, secret);
    let summary = `${raw.length} bytes`;
    try {
      const body = JSON.parse(raw.toString('utf8'));
      const task = body.data ?? body;
      const settled =
        task.settled === undefined ? '' : task.settled ? ' (settled)' : ' (estimate: not settled yet)';
      summary = `${task.taskId ?? task.task_id} ${task.state} cost ${task.cost ?? '-'}${settled}`;
    } catch {
      // printed as bytes
    }
    process.stdout.write(
      `${new Date().toISOString()} ${req.url} ${summary}; signature ${problem ? `INVALID: ${problem}` : 'valid'}\n`,
    );
  });
});
server.on('error', (error) => {
  process.stderr.write(`receive-callbacks: ${error.message}\n`);
  process.exit(1);
});
server.listen(port, host, () => {
  process.stdout.write(`receive-callbacks: listening on http://${host}:${server.address().port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
