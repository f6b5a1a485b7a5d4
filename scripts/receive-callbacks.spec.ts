import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { join } from 'node:path';

const script = join(__dirname, 'receive-callbacks.mjs');
const SECRET = 'whsec-test-secret';

/** The signature the service sends (docs/webhooks.md), made here independently of the receiver. */
function sign(body: string, taskId: string, timestamp: number, secret = SECRET): string {
  const digest = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', secret).update(`${taskId}.${timestamp}.${digest}`).digest('base64');
}

describe("npm run receive-callbacks: the README's callback receiver", () => {
  let child: ChildProcess;
  let output = '';
  let base = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [script, '--port', '0', '--secret', SECRET], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let i = 0; i < 100 && !base; i += 1) {
      base = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(base).not.toBe('');
  });

  afterAll(async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  });

  async function deliver(body: string, headers: Record<string, string>): Promise<string> {
    const before = output.length;
    const response = await fetch(`${base}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    expect(response.status).toBe(200);
    for (let i = 0; i < 100 && !output.slice(before).includes('\n'); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    return output.slice(before).trim();
  }

  const record = {
    code: 200,
    msg: 'success',
    data: { taskId: 'job_01JDZC4E6G8J0K2M4N6P8R0S2T', state: 'succeeded', cost: '0.004', settled: false },
    request_id: 'whd_01JDZC4E6G8J0K2M4N6P8R0S2T',
  };

  it('prints the task, its cost as an estimate not yet settled, and a valid signature', async () => {
    const body = JSON.stringify(record);
    const now = Math.floor(Date.now() / 1000);
    const line = await deliver(body, {
      'x-webhook-timestamp': String(now),
      'x-webhook-signature': sign(body, record.data.taskId, now),
    });
    expect(line).toMatch(
      /^\S+ \/hook job_01JDZC4E6G8J0K2M4N6P8R0S2T succeeded cost 0\.004 \(estimate: not settled yet\); signature valid$/,
    );
  });

  it('says INVALID for another secret, a changed body and an old timestamp', async () => {
    const body = JSON.stringify(record);
    const now = Math.floor(Date.now() / 1000);
    const other = await deliver(body, {
      'x-webhook-timestamp': String(now),
      'x-webhook-signature': sign(body, record.data.taskId, now, 'another secret'),
    });
    expect(other).toMatch(/signature INVALID: signature does not match$/);
    const changed = await deliver(body.replace('0.004', '0.000'), {
      'x-webhook-timestamp': String(now),
      'x-webhook-signature': sign(body, record.data.taskId, now),
    });
    expect(changed).toMatch(/cost 0\.000 .*signature INVALID: signature does not match$/);
    const old = await deliver(body, {
      'x-webhook-timestamp': String(now - 301),
      'x-webhook-signature': sign(body, record.data.taskId, now - 301),
    });
    expect(old).toMatch(/signature INVALID: timestamp missing or over 300 s off$/);
  });
});
