import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

jest.setTimeout(90_000);
const dataOf = (reply: Reply) => reply.json['data'] as Json;

/** The echo model's tokenizer, written again here: a word or a symbol with the whitespace before it. */
const tokens = (text: string): number =>
  (text.match(/\s*(?:[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])|\s+/gu) ?? []).length;
/** USD of tokens at local/echo/chat's prices (0.5 input, 1.5 output per million), as an exact decimal. */
const usd = (nanos: bigint): string => {
  const whole = nanos / 1_000_000_000n;
  const fraction = (nanos % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
};
/** Nano-USD of tokens at a price per million, rounded half up. */
const priced = (count: number, perMillionNanos: bigint): bigint => BigInt(count) * perMillionNanos;
const round = (numerator: bigint): bigint => (numerator + 500_000n) / 1_000_000n;

describe('text tasks in embedded mode: createTask on local/echo/chat, the hold, the answer, the charge', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  async function customer(credit: string) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 't', credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  const echo = (input: Json) => ({ model: 'local/echo/chat', input });

  async function settled(auth: Record<string, string>, taskId: string): Promise<Json> {
    const until = Date.now() + 30_000;
    for (;;) {
      const task = dataOf(await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth }));
      if (task['settled'] === true) return task;
      if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function run(auth: Record<string, string>, input: Json): Promise<{ accepted: Json; task: Json }> {
    const reply = await call('POST', '/api/v1/jobs/createTask', { headers: auth, body: echo(input) });
    expect(reply.status).toBe(202);
    const accepted = dataOf(reply);
    return { accepted, task: await settled(auth, accepted['taskId'] as string) };
  }

  const balance = async (auth: Record<string, string>) =>
    dataOf(await call('GET', '/api/v1/chat/credit', { headers: auth }));

  it('holds the messages plus the full max_tokens, answers, and charges the tokens used', async () => {
    const auth = await customer('1');
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello world' },
    ];
    const quote = await call('POST', '/api/v1/jobs/quote', {
      headers: auth,
      body: echo({ messages, max_tokens: 64 }),
    });
    // Hold: 16 + (8 + bytes) per message input tokens, and all 64 output tokens.
    const heldInput = 16 + messages.reduce((n, m) => n + 8 + Buffer.byteLength(m.content), 0);
    const hold = usd(round(priced(heldInput, 500_000_000n) + priced(64, 1_500_000_000n)));
    expect(dataOf(quote)['maxCharge']).toBe(hold);

    const { accepted, task } = await run(auth, { messages, max_tokens: 64 });
    expect(accepted['estimatedCost']).toBe(hold);
    const inputTokens = 3 + messages.reduce((n, m) => n + 4 + tokens(m.content), 0);
    const outputTokens = tokens('Echo: Say hello world');
    const cost = usd(round(priced(inputTokens, 500_000_000n) + priced(outputTokens, 1_500_000_000n)));
    expect(task).toMatchObject({
      state: 'succeeded',
      cost,
      settled: true,
      output: {
        assets: [],
        text: 'Echo: Say hello world',
        message: { role: 'assistant', content: 'Echo: Say hello world' },
        usage: {
          prompt_tokens: inputTokens,
          cached_tokens: 0,
          completion_tokens: outputTokens,
          reasoning_tokens: 0,
        },
        finishReason: 'stop',
      },
    });
    const left =
      1_000_000_000n - round(priced(inputTokens, 500_000_000n) + priced(outputTokens, 1_500_000_000n));
    expect(await balance(auth)).toMatchObject({ available: usd(left), held: '0' });
  });

  it('calls a tool when asked, with arguments from the last user message', async () => {
    const auth = await customer('1');
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const { task } = await run(auth, { messages: [{ role: 'user', content: 'Paris [[tool]]' }], tools });
    const output = task['output'] as Json;
    expect(output['finishReason']).toBe('tool_calls');
    expect(output['message']).toMatchObject({
      content: null,
      tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
    // The answer to a tool result reads it back.
    const call0 = (output['message'] as { tool_calls: { id: string }[] }).tool_calls[0]!;
    const { task: after } = await run(auth, {
      messages: [
        { role: 'user', content: 'Paris [[tool]]' },
        { role: 'assistant', content: null, tool_calls: (output['message'] as Json)['tool_calls'] },
        { role: 'tool', tool_call_id: call0.id, content: 'sunny, 21 C' },
      ],
      tools,
    });
    expect((after['output'] as Json)['text']).toBe(`The tool ${call0.id} returned: sunny, 21 C`);
  });

  it('shows reasoning when asked, counted inside the completion tokens', async () => {
    const auth = await customer('1');
    const { task } = await run(auth, {
      messages: [{ role: 'user', content: 'two words' }],
      reasoning_effort: 'low',
    });
    const output = task['output'] as { message: Json; usage: Json };
    expect(output.message['reasoning_content']).toBe('The user wrote 2 words (low effort).');
    const reasoning = tokens('The user wrote 2 words (low effort).');
    expect(output.usage).toMatchObject({
      reasoning_tokens: reasoning,
      completion_tokens: reasoning + tokens('Echo: two words'),
    });
  });

  it('stops at max_tokens with finishReason length, and charges what was produced', async () => {
    const auth = await customer('1');
    const { task } = await run(auth, {
      messages: [{ role: 'user', content: 'one two three four five' }],
      max_tokens: 3,
    });
    expect(task['output']).toMatchObject({
      text: 'Echo: one',
      finishReason: 'length',
      usage: { completion_tokens: 3 },
    });
  });

  it('a simulated failure fails the task uncharged, its hold released', async () => {
    const auth = await customer('1');
    for (const [marker, code] of [
      ['[[simulate:upstream_failed]]', 'upstream_failed'],
      ['[[simulate:content_rejected]]', 'content_rejected'],
      ['[[simulate:stream_cut]] a longer answer that breaks', 'upstream_failed'],
    ] as const) {
      const { task } = await run(auth, { messages: [{ role: 'user', content: `hi ${marker}` }] });
      expect(task).toMatchObject({ state: 'failed', errorCode: code, cost: '0', settled: true });
      expect(task['output']).toBeUndefined();
    }
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('refuses what the model does not accept, holding nothing', async () => {
    const auth = await customer('1');
    for (const input of [
      { messages: [] },
      { messages: [{ role: 'user', content: 'hi' }], max_tokens: 5000 },
      { messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'xhigh' },
      { messages: [{ role: 'user', content: 'hi' }], seed: 1 },
    ]) {
      const reply = await call('POST', '/api/v1/jobs/createTask', { headers: auth, body: echo(input) });
      expect([reply.status, reply.json['code']]).toEqual([400, 400]);
    }
    expect(await balance(auth)).toMatchObject({ available: '1', held: '0' });
  });

  it('purging a text task destroys its answer with its prompt', async () => {
    const auth = await customer('1');
    const { task } = await run(auth, { messages: [{ role: 'user', content: 'secret words' }] });
    const purged = await call('POST', '/api/v1/jobs/purge', {
      headers: auth,
      body: { taskId: task['taskId'] },
    });
    expect(purged.status).toBe(200);
    const after = dataOf(
      await call('GET', `/api/v1/jobs/recordInfo?taskId=${task['taskId'] as string}`, { headers: auth }),
    );
    expect(JSON.stringify(after)).not.toContain('secret');
    expect(after).toMatchObject({ state: 'succeeded', cost: task['cost'] });
  });
});
