import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { listenOnLoopback443, selfSignedCertificate, type TestCertificate } from '@gen/testing';
import { startEmbeddedProcess, type EmbeddedProcess } from './embedded-process';

/** Screenshots of this run, shown by docs/console.md. */
const SHOTS = join(__dirname, '..', '..', 'docs', 'console');

interface Receiver {
  readonly url: string;
  readonly bodies: string[];
  close(): Promise<void>;
}

/** An HTTPS endpoint receiver on port 443 of its own loopback address (endpoint URLs must be https:443). */
async function receiver(tls: TestCertificate): Promise<Receiver> {
  const bodies: string[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(raw);
      res.writeHead(200).end();
    });
  });
  const { host, close } = await listenOnLoopback443(server);
  return { url: `https://${host}/hook`, bodies, close };
}

async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the web console in Chromium', () => {
  let dir: string;
  let app: EmbeddedProcess;
  let tls: TestCertificate;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let hook: Receiver | undefined;
  /** What the page's console said about its Content-Security-Policy: must stay empty. */
  const violations: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const credit = (key: string) =>
    fetch(`${app.baseUrl}/api/v1/chat/credit`, { headers: { authorization: `Bearer ${key}` } });
  async function runTask(key: string): Promise<string> {
    const created = await fetch(`${app.baseUrl}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/sketch', input: { prompt: 'a red fox in the snow' } }),
    });
    expect(created.status).toBe(202);
    const taskId = ((await created.json()) as { data: { taskId: string } }).data.taskId;
    await until(async () => {
      const record = await fetch(`${app.baseUrl}/api/v1/jobs/recordInfo?taskId=${taskId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return ((await record.json()) as { data: { state: string } }).data.state === 'succeeded';
    });
    return taskId;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'gts-console-browser-'));
    mkdirSync(join(dir, 'tls'));
    mkdirSync(join(dir, 'data'));
    tls = selfSignedCertificate(
      join(dir, 'tls'),
      'console receivers',
      Array.from({ length: 254 }, (_, i) => `IP:127.0.0.${i + 1}`),
    );
    app = await startEmbeddedProcess(join(dir, 'data'), {
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_CA_FILE: tls.file,
      WEBHOOK_RETRY_SCHEDULE: '2,2,2',
    });
    browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'], args: ['--no-sandbox'] });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await hook?.close();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in through a one-time link, which leaves the address bar and cannot be used again', async () => {
    const link = await app.admin('POST', `/admin/v1/accounts/${app.boot.accountId}/console-links`);
    const url = String(link['url']);
    expect(url).toMatch(/\/console\/sign-in#token=gcl_/);
    await page.goto(url);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(page.url()).toBe(`${app.baseUrl}/console/keys`);
    // The cookie is HttpOnly: no script of the page can read it.
    expect(await page.evaluate('document.cookie')).toBe('');
    const cookies = await context.cookies(`${app.baseUrl}/console`);
    expect(cookies.find((c) => c.name === 'console_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/console',
    });
    await page
      .getByRole('row', { name: /default|demo/i })
      .first()
      .waitFor();
    await shot('keys');

    // The same link in a fresh browser: refused, and the page says to ask for a new one.
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(url);
    await second.getByRole('heading', { name: 'You are signed out' }).waitFor();
    expect(await second.getByRole('alert').textContent()).toContain(
      'invalid, has expired or was already used',
    );
    await other.close();
  });

  it('creates a key shown once, which works; sets its cap; revokes it, after which it is refused', async () => {
    await page.getByLabel('Name').fill('browser test');
    await page.getByLabel('Daily cap (USD)', { exact: true }).fill('2.50');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent())!.trim();
    expect(secret).toMatch(/^gts_/);
    await page.getByText('shown only this once').waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await shot('key-created');

    const ok = await credit(secret);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { currency: string } }).data.currency).toBe('USD');

    await page.getByRole('button', { name: 'I have stored the key' }).click();
    expect(await page.getByTestId('secret').count()).toBe(0);
    const row = page.getByRole('row', { name: /browser test/ });
    await row.getByLabel('Daily cap of browser test in USD').fill('1.25');
    await row.getByRole('button', { name: 'Set cap' }).click();
    await row.getByRole('cell', { name: '1.25', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText('Revoked').waitFor();
    await until(async () => (await credit(secret)).status === 401, 5000);
    // The demo key was left alone.
    expect((await credit(app.boot.apiKey)).status).toBe(200);
  });

  it('finds a task run with the key in the history and shows its image', async () => {
    const taskId = await runTask(app.boot.apiKey);
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByLabel('State').selectOption('succeeded');
    // The model and the date range apply on "Show": another model has no task; this one, from today, has it.
    await page.getByLabel('Model').fill('local/reel');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No tasks match these filters.').waitFor();
    await page.getByLabel('Model').fill('local/sketch');
    await page.getByLabel('From (UTC, inclusive)').fill(new Date().toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('link', { name: taskId }).click();
    await page.getByRole('heading', { name: `Task ${taskId}` }).waitFor();
    expect(await page.getByTestId('task-state').textContent()).toBe('succeeded');
    const image = page.getByRole('img', { name: 'Output image 1 of the task' });
    await image.waitFor();
    await until(() =>
      image.evaluate((img) => {
        const loaded = img as unknown as { complete: boolean; naturalWidth: number };
        return loaded.complete && loaded.naturalWidth > 0;
      }),
    );
    await shot('task');
  });

  it('shows a text task that ended in a tool call: the call, the reasoning, the finish reason and the tokens', async () => {
    const created = await fetch(`${app.baseUrl}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.boot.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'local/echo/chat',
        input: {
          messages: [{ role: 'user', content: 'Lisbon' }],
          tools: [
            {
              type: 'function',
              function: {
                name: 'get_weather',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            },
          ],
          tool_choice: 'required',
          reasoning_effort: 'low',
        },
      }),
    });
    expect(created.status).toBe(202);
    const taskId = ((await created.json()) as { data: { taskId: string } }).data.taskId;
    await page.goto(`${app.baseUrl}/console/tasks/${taskId}`);
    const calls = page.getByTestId('tool-calls');
    await calls.waitFor();
    expect(await calls.locator('code').first().textContent()).toBe('get_weather');
    expect(JSON.parse((await calls.locator('pre').first().textContent())!)).toEqual({ city: 'Lisbon' });
    await page.getByText('No text: the answer is tool calls only.').waitFor();
    expect(await page.getByTestId('finish-reason').textContent()).toBe('tool_calls');
    expect(await page.getByTestId('usage').textContent()).toMatch(
      /^\d+ prompt \(0 cached\), \d+ completion \([1-9]\d* reasoning\)$/,
    );
    await page.locator('summary', { hasText: 'Reasoning' }).click();
    await page.getByText(/The user wrote 1 words/).waitFor();
    // Amounts read as a person reads them, the exact one on hover.
    const cost = page.locator('dd .money').first();
    expect(await cost.getAttribute('title')).toMatch(/^\d+\.\d+ USD$/);
    await shot('task-tool-call');
  });

  it('registers a webhook endpoint, and shows the message delivered to it', async () => {
    hook = await receiver(tls);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    // Nothing chosen yet: the page says why "Add endpoint" cannot be pressed, and which rule a URL breaks.
    const add = page.getByRole('button', { name: 'Add endpoint' });
    await page.getByTestId('events-hint').waitFor();
    expect(await add.isDisabled()).toBe(true);
    const rule = page.getByTestId('url-rule');
    for (const [url, said] of [
      ['http://hooks.example/in', 'The URL must start with https:// (plain http is refused).'],
      [
        'https://user:pw@hooks.example/in',
        'The URL must not carry a user name or password (nothing before an @).',
      ],
      ['https://hooks.example:8443/in', 'The URL must use the HTTPS port 443: leave the port out.'],
    ] as const) {
      await page.getByLabel('HTTPS URL').fill(url);
      expect(await rule.textContent()).toBe(said);
    }
    await page.getByRole('checkbox', { name: /^task\.succeeded/ }).check();
    expect(await page.getByTestId('events-hint').count()).toBe(0);
    expect(await add.isDisabled()).toBe(true);
    // Only the service can tell that a host does not resolve: said beside the field, naming no address.
    await page.getByLabel('HTTPS URL').fill('https://nothing.invalid/in');
    await add.click();
    await page
      .getByText('Refused by the service: the host does not resolve (no address found for it).')
      .waitFor();
    await page.getByLabel('HTTPS URL').fill('https://10.255.255.1/in');
    await add.click();
    await page
      .getByText('Refused by the service: the host resolves to an address that is not public.')
      .waitFor();
    expect(await page.getByText(/Something went wrong/).count()).toBe(0);
    await page.getByRole('checkbox', { name: /^task\.succeeded/ }).uncheck();
    await page.getByLabel('HTTPS URL').fill(hook.url);
    await page.getByLabel('Description').fill('browser test receiver');
    await page.getByRole('checkbox', { name: /^task\.succeeded/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect((await page.getByTestId('secret').textContent())!.trim()).toMatch(/^whsec_/);
    // A signing secret, not a key: its own words on the button that hides it.
    await page.getByRole('button', { name: 'I have stored the secret' }).waitFor();
    const card = page.getByRole('article', { name: hook.url });
    expect(await card.getByTestId('endpoint-status').textContent()).toBe('Enabled');

    const taskId = await runTask(app.boot.apiKey);
    await until(() => hook!.bodies.some((body) => body.includes(taskId)));
    await card.getByRole('button', { name: 'Show recent messages' }).click();
    const message = card.getByTestId('endpoint-message').filter({ hasText: 'task.succeeded' }).first();
    await message.locator('.badge.state-delivered').waitFor();
    await message.getByRole('cell', { name: '200', exact: true }).waitFor();
    await shot('webhooks');

    // Edit the endpoint: another description and one more event; the card and the API show the change.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = card.getByRole('form', { name: 'Edit' });
    expect(await edit.getByLabel('HTTPS URL').inputValue()).toBe(hook.url);
    await edit.getByLabel('Description').fill('browser test receiver, edited');
    await edit.getByRole('checkbox', { name: /^task\.failed/ }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await card.getByText('browser test receiver, edited').waitFor();
    await card.locator('code.tag', { hasText: 'task.failed' }).waitFor();
    expect(await edit.count()).toBe(0);
    const listed = await page.evaluate(async () => {
      const response = await fetch('/console/v1/webhook-endpoints');
      return (
        (await response.json()) as { data: { items: { description: string; enabledEvents: string[] }[] } }
      ).data.items;
    });
    expect(listed).toEqual([
      expect.objectContaining({
        description: 'browser test receiver, edited',
        enabledEvents: expect.arrayContaining(['task.succeeded', 'task.failed']),
      }),
    ]);

    // The task's own page shows the same message with its attempts.
    await page.goto(`${app.baseUrl}/console/tasks/${taskId}`);
    await page.getByTestId('message').locator('.badge.state-delivered').waitFor();
  });

  it('shows the balance and the usage of the account', async () => {
    await page.getByRole('link', { name: 'Balance' }).click();
    expect(await page.getByTestId('available').textContent()).toMatch(/^\d+(\.\d+)? USD$/);
    await shot('balance');
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByTestId('usage-models').getByRole('cell', { name: 'local/sketch' }).waitFor();
    await page.locator('.plot canvas').waitFor();
    await shot('usage');
    // One key's usage: the page asks the API for that key's figures and shows them.
    const keyValue = await page.getByLabel('Key').locator('option').nth(1).getAttribute('value');
    await page.getByLabel('Key').selectOption(keyValue!);
    const [byKey] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes('/console/v1/usage') && r.url().includes(`keyId=${keyValue}`),
      ),
      page.getByRole('button', { name: 'Show' }).click(),
    ]);
    expect(byKey.status()).toBe(200);
    await page.getByTestId('usage-totals').waitFor();
    // A range over 92 days: the API refuses it and the page shows its message.
    await page.getByLabel('From (UTC, inclusive)').fill('2020-01-01');
    await page.getByLabel('To (UTC, exclusive)').fill('2020-12-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').waitFor();
  });

  it('switches to Japanese, and every screen follows, on a phone-sized screen too', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('heading', { name: 'API キー', level: 1 }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    await page.getByRole('navigation').getByRole('link', { name: '残高' }).waitFor();
    await shot('keys-ja');
    await page.getByRole('link', { name: 'タスク' }).click();
    await page.getByRole('heading', { name: 'タスク', level: 1 }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Webhook' }).click();
    await page.getByRole('heading', { name: 'コールバック署名シークレット' }).waitFor();
    // Nothing wider than the phone's screen but the scrolling tables.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('webhooks-ja-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  });

  it('signs out: the session is gone, the page says to ask for a new link', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/console/v1/session')).status);
    expect(status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    await shot('signed-out');
    expect(violations).toEqual([]);
  });
});
