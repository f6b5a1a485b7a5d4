import { ProtocolError } from '../canonical/text-input';
import { mapChatCompletionsRequest } from './request';

/** The ProtocolError a body is refused with, as plain fields (so a mismatch shows which one differs). */
function refusal(body: unknown): { status: number; code: string; param: string | null; messageId: string } {
  try {
    mapChatCompletionsRequest(body);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { status: error.status, code: error.code, param: error.param, messageId: error.messageId };
  }
  throw new Error('the body was accepted');
}

const unsupported = (param: string) => ({
  status: 400,
  code: 'unsupported_parameter',
  param,
  messageId: 'compat.unsupported_parameter',
});
const invalidField = (param: string) => ({
  status: 400,
  code: 'invalid_request',
  param,
  messageId: 'request.invalid_field',
});
const missingField = (param: string) => ({
  status: 400,
  code: 'invalid_request',
  param,
  messageId: 'request.missing_field',
});

const USER = { role: 'user', content: 'Hi' };
const base = (extra: Record<string, unknown> = {}) => ({
  model: 'openai/gpt-5-mini',
  messages: [USER],
  ...extra,
});

describe('mapChatCompletionsRequest: accepted requests', () => {
  it('maps the tool-calling conversation of the OpenAI docs, every role and part kind, field for field', () => {
    const body = {
      model: 'openai/gpt-5-mini',
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        {
          role: 'user',
          name: 'ada',
          content: [
            { type: 'text', text: 'What is the weather where this photo was taken?' },
            { type: 'image_url', image_url: { url: 'https://example.com/p.jpg', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_abc',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_abc', content: '{"temp":21}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            strict: true,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      max_completion_tokens: 512,
      temperature: 0.7,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.2,
      stop: ['END', 'STOP'],
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } },
      stream: true,
      stream_options: { include_usage: true },
    };
    const mapped = mapChatCompletionsRequest(body);
    expect(mapped).toEqual({
      model: 'openai/gpt-5-mini',
      stream: true,
      includeUsage: true,
      ignored: [],
      input: {
        messages: body.messages,
        tools: body.tools,
        tool_choice: body.tool_choice,
        parallel_tool_calls: false,
        max_tokens: 512,
        temperature: 0.7,
        top_p: 0.9,
        frequency_penalty: 0.1,
        presence_penalty: -0.2,
        stop: ['END', 'STOP'],
        reasoning_effort: 'low',
        response_format: body.response_format,
      },
      paths: {
        messages: 'messages',
        tools: 'tools',
        tool_choice: 'tool_choice',
        parallel_tool_calls: 'parallel_tool_calls',
        max_tokens: 'max_completion_tokens',
        temperature: 'temperature',
        top_p: 'top_p',
        frequency_penalty: 'frequency_penalty',
        presence_penalty: 'presence_penalty',
        stop: 'stop',
        reasoning_effort: 'reasoning_effort',
        response_format: 'response_format',
      },
    });
    // The mapper copies; the client's objects are not the canonical ones.
    expect(mapped.input.messages[2]).not.toBe(body.messages[2]);
  });

  it('maps the minimal request: not streamed, no usage, only messages', () => {
    expect(mapChatCompletionsRequest(base())).toEqual({
      model: 'openai/gpt-5-mini',
      input: { messages: [{ role: 'user', content: 'Hi' }] },
      stream: false,
      includeUsage: false,
      ignored: [],
      paths: { messages: 'messages' },
    });
  });

  it('passes the aggregator sampling fields through and values untouched, even out of any model bound', () => {
    const mapped = mapChatCompletionsRequest(
      base({ top_k: 40, min_p: 0.05, top_a: 0.2, repetition_penalty: 1.1, temperature: 9, stop: 'x' }),
    );
    expect(mapped.input).toMatchObject({
      top_k: 40,
      min_p: 0.05,
      top_a: 0.2,
      repetition_penalty: 1.1,
      temperature: 9,
      stop: 'x',
    });
    expect(mapped.paths).toMatchObject({ top_k: 'top_k', repetition_penalty: 'repetition_penalty' });
  });

  it('takes max_tokens under its legacy name, and both names when they agree', () => {
    expect(mapChatCompletionsRequest(base({ max_tokens: 100 }))).toMatchObject({
      input: { max_tokens: 100 },
      paths: { max_tokens: 'max_tokens' },
    });
    expect(mapChatCompletionsRequest(base({ max_tokens: 100, max_completion_tokens: 100 }))).toMatchObject({
      input: { max_tokens: 100 },
      paths: { max_tokens: 'max_completion_tokens' },
    });
  });

  it('ignores user, metadata, store and n = 1 and lists them (rules 1 and 4)', () => {
    const mapped = mapChatCompletionsRequest(base({ user: 'u-1', metadata: { a: 'b' }, store: true, n: 1 }));
    expect(mapped.ignored).toEqual(['n', 'user', 'metadata', 'store']);
    expect(mapped.input).toEqual({ messages: [USER] });
  });

  it('treats a null field as absent, including a refused one (what SDKs send for an unset option)', () => {
    const mapped = mapChatCompletionsRequest(
      base({ seed: null, logprobs: null, temperature: null, stop: null, stream_options: null, user: null }),
    );
    expect(mapped.input).toEqual({ messages: [USER] });
    expect(mapped.ignored).toEqual([]);
  });

  it('takes an assistant message without content (a tool-call turn) as null content', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const mapped = mapChatCompletionsRequest(
      base({ messages: [USER, { role: 'assistant', tool_calls: [call] }] }),
    );
    expect(mapped.input.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [call] });
  });

  it('drops what a client copies back from a response message, listing only the non-empty ones', () => {
    const mapped = mapChatCompletionsRequest(
      base({
        messages: [
          USER,
          { role: 'assistant', content: 'Sunny.', refusal: null, annotations: [] },
          { role: 'assistant', content: 'Still sunny.', refusal: 'No.', annotations: [{ type: 'url' }] },
          USER,
        ],
      }),
    );
    expect(mapped.input.messages[1]).toEqual({ role: 'assistant', content: 'Sunny.' });
    expect(mapped.ignored).toEqual(['messages.2.refusal', 'messages.2.annotations']);
  });

  it('keeps the reasoning of an answer sent back: reasoning_content, and thinking_blocks unchanged', () => {
    const blocks = [
      { type: 'thinking', thinking: 'It is June, ', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHYi+...' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      { type: 'thinking', thinking: 'so: sunny.', signature: 'ErUBCkYIBhgCIkAgx' },
    ];
    const call = { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{}' } };
    const mapped = mapChatCompletionsRequest(
      base({
        messages: [
          USER,
          {
            role: 'assistant',
            content: null,
            reasoning_content: 'It is June, so: sunny.',
            thinking_blocks: blocks,
            tool_calls: [call],
            refusal: null,
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: '21 C' },
        ],
      }),
    );
    expect(mapped.input.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'It is June, so: sunny.',
      thinking_blocks: blocks,
      tool_calls: [call],
    });
    expect(mapped.ignored).toEqual([]);
    // Null is absent, as for every field.
    const nulls = mapChatCompletionsRequest(
      base({
        messages: [USER, { role: 'assistant', content: 'x', reasoning_content: null, thinking_blocks: null }],
      }),
    );
    expect(nulls.input.messages[1]).toEqual({ role: 'assistant', content: 'x' });
  });

  it('refuses reasoning on other roles, and malformed thinking blocks at their path', () => {
    const at = (message: unknown) => refusal(base({ messages: [USER, message] }));
    expect(at({ role: 'user', content: 'x', reasoning_content: 'r' })).toEqual(
      unsupported('messages.1.reasoning_content'),
    );
    expect(at({ role: 'tool', tool_call_id: 'c', content: 'x', thinking_blocks: [] })).toEqual(
      unsupported('messages.1.thinking_blocks'),
    );
    const assistant = (extra: Record<string, unknown>) => at({ role: 'assistant', content: 'x', ...extra });
    expect(assistant({ reasoning_content: 5 })).toEqual(invalidField('messages.1.reasoning_content'));
    expect(assistant({ thinking_blocks: {} })).toEqual(invalidField('messages.1.thinking_blocks'));
    const block = (b: unknown) =>
      assistant({ thinking_blocks: [{ type: 'redacted_thinking', data: 'd' }, b] });
    const good = { type: 'thinking', thinking: 't', signature: 's' };
    expect(block('t')).toEqual(invalidField('messages.1.thinking_blocks.1'));
    expect(block({ thinking: 't', signature: 's' })).toEqual(
      missingField('messages.1.thinking_blocks.1.type'),
    );
    expect(block({ ...good, type: 'text' })).toMatchObject({
      code: 'unsupported_parameter',
      param: 'messages.1.thinking_blocks.1',
    });
    expect(block({ ...good, signature: undefined })).toEqual(
      missingField('messages.1.thinking_blocks.1.signature'),
    );
    // An empty signature is no signature: Anthropic would refuse the block.
    expect(block({ ...good, signature: '' })).toEqual(invalidField('messages.1.thinking_blocks.1.signature'));
    expect(block({ ...good, thinking: 3 })).toEqual(invalidField('messages.1.thinking_blocks.1.thinking'));
    expect(block({ type: 'thinking', signature: 's' })).toEqual(
      missingField('messages.1.thinking_blocks.1.thinking'),
    );
    expect(block({ ...good, cache_control: { type: 'ephemeral' } })).toEqual(
      unsupported('messages.1.thinking_blocks.1.cache_control'),
    );
    expect(block({ type: 'redacted_thinking' })).toEqual(missingField('messages.1.thinking_blocks.1.data'));
    expect(block({ type: 'redacted_thinking', data: '', signature: 's' })).toEqual(
      unsupported('messages.1.thinking_blocks.1.signature'),
    );
    expect(block({ type: 'redacted_thinking', data: '' })).toEqual(
      invalidField('messages.1.thinking_blocks.1.data'),
    );
  });

  it('stream_options: include_usage false or absent, include_obfuscation ignored and listed', () => {
    expect(mapChatCompletionsRequest(base({ stream: true })).includeUsage).toBe(false);
    const mapped = mapChatCompletionsRequest(
      base({ stream: true, stream_options: { include_usage: false, include_obfuscation: false } }),
    );
    expect(mapped.includeUsage).toBe(false);
    expect(mapped.ignored).toEqual(['stream_options.include_obfuscation']);
  });
});

describe('mapChatCompletionsRequest: the aggregator reasoning object (rule 8)', () => {
  it('translates effort into reasoning_effort and lists the other keys as ignored', () => {
    const mapped = mapChatCompletionsRequest(
      base({ reasoning: { effort: 'high', max_tokens: 2000, exclude: true } }),
    );
    expect(mapped.input.reasoning_effort).toBe('high');
    expect(mapped.paths.reasoning_effort).toBe('reasoning.effort');
    expect(mapped.ignored).toEqual(['reasoning.max_tokens', 'reasoning.exclude']);
  });

  it('translates enabled: false into none, with the path the field rules recognize', () => {
    const mapped = mapChatCompletionsRequest(base({ reasoning: { enabled: false } }));
    expect(mapped.input.reasoning_effort).toBe('none');
    expect(mapped.paths.reasoning_effort).toBe('reasoning.enabled');
    expect(mapped.ignored).toEqual([]);
  });

  it('lists enabled: true alone as ignored: it asks for nothing a level can say', () => {
    const mapped = mapChatCompletionsRequest(base({ reasoning: { enabled: true } }));
    expect(mapped.input.reasoning_effort).toBeUndefined();
    expect(mapped.ignored).toEqual(['reasoning.enabled']);
  });

  it('accepts reasoning_effort and reasoning.effort when they agree, refuses them when they differ', () => {
    const agreeing = mapChatCompletionsRequest(
      base({ reasoning_effort: 'low', reasoning: { effort: 'low' } }),
    );
    expect(agreeing.input.reasoning_effort).toBe('low');
    expect(agreeing.paths.reasoning_effort).toBe('reasoning_effort');
    for (const body of [
      base({ reasoning_effort: 'low', reasoning: { effort: 'high' } }),
      base({ reasoning_effort: 'low', reasoning: { enabled: false } }),
      base({ reasoning: { enabled: false, effort: 'high' } }),
    ]) {
      expect(refusal(body)).toEqual({
        status: 400,
        code: 'invalid_request',
        param: 'reasoning',
        messageId: 'chat_completions.reasoning_conflict',
      });
    }
  });

  it('refuses a reasoning that is not an object, or keys of the wrong type', () => {
    expect(refusal(base({ reasoning: 'high' }))).toEqual(invalidField('reasoning'));
    expect(refusal(base({ reasoning: { effort: 3 } }))).toEqual(invalidField('reasoning.effort'));
    expect(refusal(base({ reasoning: { enabled: 'no' } }))).toEqual(invalidField('reasoning.enabled'));
  });
});

describe('mapChatCompletionsRequest: refusals and their param', () => {
  it.each([
    ['logprobs', true],
    ['top_logprobs', 3],
    ['logit_bias', { '50256': -100 }],
    ['seed', 42],
    ['service_tier', 'auto'],
    ['modalities', ['text']],
    ['audio', { voice: 'alloy', format: 'mp3' }],
    ['prediction', { type: 'content', content: 'x' }],
    ['functions', [{ name: 'f' }]],
    ['function_call', 'auto'],
    ['web_search_options', {}],
    ['verbosity', 'low'],
    ['prompt_cache_key', 'k'],
    ['models', ['a/b', 'c/d']],
    ['route', 'fallback'],
    ['provider', { order: ['x'] }],
    ['transforms', ['middle-out']],
    ['plugins', [{ id: 'web' }]],
    ['usage', { include: true }],
    ['temprature', 0.5],
  ])('refuses %s as unsupported_parameter', (name, value) => {
    expect(refusal(base({ [name]: value }))).toEqual(unsupported(name));
  });

  it('refuses n other than 1 with its own message, and a non-integer n as invalid', () => {
    expect(refusal(base({ n: 2 }))).toEqual({
      status: 400,
      code: 'unsupported_parameter',
      param: 'n',
      messageId: 'chat_completions.n_unsupported',
    });
    expect(refusal(base({ n: 0 }))).toMatchObject({ code: 'unsupported_parameter', param: 'n' });
    expect(refusal(base({ n: '1' }))).toEqual(invalidField('n'));
  });

  it('refuses max_tokens and max_completion_tokens with different values', () => {
    expect(refusal(base({ max_tokens: 100, max_completion_tokens: 200 }))).toEqual({
      status: 400,
      code: 'invalid_request',
      param: 'max_completion_tokens',
      messageId: 'chat_completions.max_tokens_conflict',
    });
    expect(refusal(base({ max_tokens: 1.5 }))).toEqual(invalidField('max_tokens'));
    expect(refusal(base({ max_completion_tokens: '9' }))).toEqual(invalidField('max_completion_tokens'));
  });

  it('refuses a body that is not an object, and a missing or empty model or messages', () => {
    expect(refusal([])).toMatchObject({
      code: 'invalid_request',
      messageId: 'request.body_required',
      param: null,
    });
    expect(refusal('x')).toMatchObject({ code: 'invalid_request', messageId: 'request.body_required' });
    expect(refusal({ messages: [USER] })).toEqual(missingField('model'));
    expect(refusal({ model: '', messages: [USER] })).toEqual(invalidField('model'));
    expect(refusal({ model: 'm' })).toEqual(missingField('messages'));
    expect(refusal({ model: 'm', messages: [] })).toEqual(invalidField('messages'));
    expect(refusal({ model: 'm', messages: {} })).toEqual(invalidField('messages'));
  });

  it('refuses malformed messages at their path', () => {
    const at = (message: unknown) => refusal(base({ messages: [USER, message] }));
    expect(at('hi')).toEqual(invalidField('messages.1'));
    expect(at({ content: 'x' })).toEqual(missingField('messages.1.role'));
    expect(at({ role: 'function', content: 'x' })).toEqual(invalidField('messages.1.role'));
    expect(at({ role: 'user' })).toEqual(missingField('messages.1.content'));
    expect(at({ role: 'user', content: null })).toEqual(missingField('messages.1.content'));
    expect(at({ role: 'user', content: 7 })).toEqual(invalidField('messages.1.content'));
    expect(at({ role: 'user', content: 'x', name: 3 })).toEqual(invalidField('messages.1.name'));
    expect(at({ role: 'tool', content: 'x' })).toEqual(missingField('messages.1.tool_call_id'));
    expect(at({ role: 'user', content: 'x', tool_call_id: 'c' })).toEqual(
      unsupported('messages.1.tool_call_id'),
    );
    expect(at({ role: 'user', content: 'x', tool_calls: [] })).toEqual(unsupported('messages.1.tool_calls'));
    expect(at({ role: 'tool', tool_call_id: 'c', content: 'x', name: 'f' })).toEqual(
      unsupported('messages.1.name'),
    );
    expect(at({ role: 'assistant', content: 'x', audio: { id: 'a' } })).toEqual(
      unsupported('messages.1.audio'),
    );
    expect(at({ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } })).toEqual(
      unsupported('messages.1.function_call'),
    );
    expect(at({ role: 'user', content: 'x', refusal: 'no' })).toEqual(unsupported('messages.1.refusal'));
  });

  it('refuses content parts the service does not take, at messages.<i>.content.<j>', () => {
    const part = (p: unknown) =>
      refusal(base({ messages: [USER, { role: 'user', content: [{ type: 'text', text: 'a' }, p] }] }));
    expect(part({ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } })).toEqual(
      unsupported('messages.1.content.1'),
    );
    expect(part({ type: 'file', file: { file_id: 'file-1' } })).toEqual(unsupported('messages.1.content.1'));
    expect(part({ type: 'refusal', refusal: 'no' })).toEqual(unsupported('messages.1.content.1'));
    expect(part({ text: 'a' })).toEqual(missingField('messages.1.content.1.type'));
    expect(part({ type: 'text' })).toEqual(missingField('messages.1.content.1.text'));
    expect(part({ type: 'text', text: 1 })).toEqual(invalidField('messages.1.content.1.text'));
    expect(part({ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } })).toEqual(
      unsupported('messages.1.content.1.cache_control'),
    );
    expect(part({ type: 'image_url' })).toEqual(missingField('messages.1.content.1.image_url'));
    expect(part({ type: 'image_url', image_url: 'https://x/y.png' })).toEqual(
      invalidField('messages.1.content.1.image_url'),
    );
    expect(part({ type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'ultra' } })).toEqual(
      invalidField('messages.1.content.1.image_url.detail'),
    );
    expect(part({ type: 'image_url', image_url: {} })).toEqual(
      missingField('messages.1.content.1.image_url.url'),
    );
    expect(part('text')).toEqual(invalidField('messages.1.content.1'));
  });

  it('refuses malformed or custom tool calls of an assistant message', () => {
    const call = (c: unknown) => refusal(base({ messages: [USER, { role: 'assistant', tool_calls: [c] }] }));
    const good = { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(call({ ...good, type: 'custom' })).toEqual(unsupported('messages.1.tool_calls.0.type'));
    expect(call({ ...good, id: undefined })).toEqual(missingField('messages.1.tool_calls.0.id'));
    expect(call({ ...good, function: { name: 'f' } })).toEqual(
      missingField('messages.1.tool_calls.0.function.arguments'),
    );
    expect(call({ ...good, function: { name: 'f', arguments: {} } })).toEqual(
      invalidField('messages.1.tool_calls.0.function.arguments'),
    );
    expect(refusal(base({ messages: [USER, { role: 'assistant', tool_calls: {} }] }))).toEqual(
      invalidField('messages.1.tool_calls'),
    );
  });

  it('refuses non-function tools, malformed tools and unknown tool keys', () => {
    const fn = { name: 'f', parameters: { type: 'object' } };
    expect(refusal(base({ tools: [{ type: 'custom', custom: { name: 'x' } }] }))).toEqual(
      unsupported('tools.0.type'),
    );
    expect(refusal(base({ tools: [{ type: 'web_search' }] }))).toEqual(unsupported('tools.0.type'));
    expect(refusal(base({ tools: [{ function: fn }] }))).toEqual(missingField('tools.0.type'));
    expect(refusal(base({ tools: [{ type: 'function' }] }))).toEqual(missingField('tools.0.function'));
    expect(refusal(base({ tools: [{ type: 'function', function: {} }] }))).toEqual(
      missingField('tools.0.function.name'),
    );
    expect(refusal(base({ tools: [{ type: 'function', function: { ...fn, parameters: [] } }] }))).toEqual(
      invalidField('tools.0.function.parameters'),
    );
    expect(refusal(base({ tools: [{ type: 'function', function: { ...fn, strict: 'yes' } }] }))).toEqual(
      invalidField('tools.0.function.strict'),
    );
    expect(refusal(base({ tools: [{ type: 'function', function: fn, cache_control: {} }] }))).toEqual(
      unsupported('tools.0.cache_control'),
    );
    expect(refusal(base({ tools: [{ type: 'function', function: { ...fn, examples: [] } }] }))).toEqual(
      unsupported('tools.0.function.examples'),
    );
    expect(refusal(base({ tools: { type: 'function' } }))).toEqual(invalidField('tools'));
  });

  it('refuses tool_choice forms that do not exist here', () => {
    expect(refusal(base({ tool_choice: 'any' }))).toEqual(invalidField('tool_choice'));
    expect(refusal(base({ tool_choice: { type: 'allowed_tools', allowed_tools: {} } }))).toEqual(
      unsupported('tool_choice.type'),
    );
    expect(refusal(base({ tool_choice: { type: 'function' } }))).toEqual(
      missingField('tool_choice.function'),
    );
    expect(refusal(base({ tool_choice: { type: 'function', function: {} } }))).toEqual(
      missingField('tool_choice.function.name'),
    );
    expect(refusal(base({ tool_choice: 3 }))).toEqual(invalidField('tool_choice'));
  });

  it('refuses malformed response_format, sampling, stop, stream and parallel_tool_calls values', () => {
    expect(refusal(base({ response_format: { type: 'yaml' } }))).toEqual(
      invalidField('response_format.type'),
    );
    expect(refusal(base({ response_format: {} }))).toEqual(missingField('response_format.type'));
    expect(refusal(base({ response_format: { type: 'json_schema' } }))).toEqual(
      missingField('response_format.json_schema'),
    );
    expect(refusal(base({ response_format: { type: 'json_object', json_schema: {} } }))).toEqual(
      unsupported('response_format.json_schema'),
    );
    expect(refusal(base({ response_format: 'json' }))).toEqual(invalidField('response_format'));
    expect(refusal(base({ temperature: '0.5' }))).toEqual(invalidField('temperature'));
    expect(refusal(base({ top_k: Number.NaN }))).toEqual(invalidField('top_k'));
    expect(refusal(base({ stop: ['a', 1] }))).toEqual(invalidField('stop.1'));
    expect(refusal(base({ stop: 5 }))).toEqual(invalidField('stop'));
    expect(refusal(base({ stream: 'yes' }))).toEqual(invalidField('stream'));
    expect(refusal(base({ parallel_tool_calls: 1 }))).toEqual(invalidField('parallel_tool_calls'));
    expect(refusal(base({ reasoning_effort: 2 }))).toEqual(invalidField('reasoning_effort'));
  });

  it('refuses stream_options without stream, and unknown or mistyped stream options', () => {
    expect(refusal(base({ stream_options: { include_usage: true } }))).toEqual({
      status: 400,
      code: 'invalid_request',
      param: 'stream_options',
      messageId: 'chat_completions.stream_options_without_stream',
    });
    expect(refusal(base({ stream: false, stream_options: { include_usage: true } }))).toMatchObject({
      param: 'stream_options',
    });
    expect(refusal(base({ stream: true, stream_options: { chunk_size: 3 } }))).toEqual(
      unsupported('stream_options.chunk_size'),
    );
    expect(refusal(base({ stream: true, stream_options: { include_usage: 'yes' } }))).toEqual(
      invalidField('stream_options.include_usage'),
    );
  });

  it('carries the param into the localized message parameters', () => {
    try {
      mapChatCompletionsRequest(base({ seed: 1 }));
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).params).toEqual({ param: 'seed' });
    }
    try {
      mapChatCompletionsRequest(base({ temperature: 'hot' }));
      throw new Error('accepted');
    } catch (error) {
      expect((error as ProtocolError).params).toEqual({ field: 'temperature' });
    }
  });
});
