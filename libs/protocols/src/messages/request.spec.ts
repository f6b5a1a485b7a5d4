import { ProtocolError } from '../canonical/text-input';
import { mapMessagesRequest } from './request';

const refusal = (body: unknown): ProtocolError => {
  try {
    mapMessagesRequest(body);
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
};

const BASE = { model: 'anthropic/claude-sonnet-4', max_tokens: 1024 };

describe('mapMessagesRequest', () => {
  it('maps the docs quickstart shape', () => {
    expect(
      mapMessagesRequest({
        ...BASE,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello, Claude' }],
      }),
    ).toEqual({
      model: 'anthropic/claude-sonnet-4',
      input: {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello, Claude' },
        ],
        max_tokens: 1024,
      },
      stream: false,
      includeUsage: true,
      ignored: [],
      paths: { messages: 'messages', max_tokens: 'max_tokens' },
    });
  });

  it('maps a tool-use conversation with images, thinking and every setting', () => {
    const mapped = mapMessagesRequest({
      ...BASE,
      system: [
        { type: 'text', text: 'You are a weather bot.' },
        { type: 'text', text: 'Be precise.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/sky.jpg' } },
            { type: 'text', text: 'Weather where these were taken?' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two photos...', signature: 'sig' },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { location: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '15 degrees' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [{ type: 'text', text: '22 degrees' }],
              is_error: false,
            },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      temperature: 0.5,
      top_p: 0.8,
      top_k: 40,
      stop_sequences: ['\n\nHuman:'],
      tools: [
        {
          name: 'get_weather',
          description: 'Get the current weather in a given location',
          input_schema: {
            type: 'object',
            properties: { location: { type: 'string' } },
            required: ['location'],
          },
        },
        { type: 'custom', name: 'noop', input_schema: { type: 'object' } },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      metadata: { user_id: 'u-1' },
      stream: true,
    });
    expect(mapped.stream).toBe(true);
    expect(mapped.ignored).toEqual(['metadata', 'thinking']);
    expect(mapped.input).toEqual({
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are a weather bot.' },
            { type: 'text', text: 'Be precise.' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/sky.jpg' } },
            { type: 'text', text: 'Weather where these were taken?' },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me check.',
          reasoning_content: 'Two photos...',
          thinking_blocks: [{ type: 'thinking', thinking: 'Two photos...', signature: 'sig' }],
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            {
              id: 'toolu_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '15 degrees' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '22 degrees' }] },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      ],
      max_tokens: 1024,
      temperature: 0.5,
      top_p: 0.8,
      top_k: 40,
      stop: ['\n\nHuman:'],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Get the current weather in a given location',
            parameters: {
              type: 'object',
              properties: { location: { type: 'string' } },
              required: ['location'],
            },
          },
        },
        { type: 'function', function: { name: 'noop', parameters: { type: 'object' } } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(mapped.paths).toEqual({
      messages: 'messages',
      max_tokens: 'max_tokens',
      temperature: 'temperature',
      top_p: 'top_p',
      top_k: 'top_k',
      stop: 'stop_sequences',
      tools: 'tools',
      tool_choice: 'tool_choice',
      parallel_tool_calls: 'tool_choice.disable_parallel_tool_use',
    });
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [
      { type: 'tool', name: 'get_weather' },
      { type: 'function', function: { name: 'get_weather' } },
    ],
  ])('maps tool_choice %j', (choice, expected) => {
    const mapped = mapMessagesRequest({ ...BASE, messages: [], tool_choice: choice });
    expect(mapped.input.tool_choice).toEqual(expected);
    expect(mapped.input.parallel_tool_calls).toBeUndefined();
  });

  it('maps disable_parallel_tool_use false to parallel_tool_calls true', () => {
    const mapped = mapMessagesRequest({
      ...BASE,
      messages: [],
      tool_choice: { type: 'auto', disable_parallel_tool_use: false },
    });
    expect(mapped.input.parallel_tool_calls).toBe(true);
  });

  it('keeps the order of blocks in a user turn and gives an assistant turn of tool calls only null content', () => {
    const { input } = mapMessagesRequest({
      ...BASE,
      messages: [
        { role: 'user', content: [] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'tool_result', tool_use_id: 't' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'xyz' }] },
      ],
    });
    expect(input.messages).toEqual([
      { role: 'user', content: [] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      { role: 'tool', tool_call_id: 't', content: '' },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
      { role: 'assistant', content: '', thinking_blocks: [{ type: 'redacted_thinking', data: 'xyz' }] },
    ]);
  });

  it('keeps signed reasoning blocks in order and unchanged; unsigned thinking is reasoning_content only', () => {
    const blocks = [
      { type: 'thinking', thinking: 'Check both cities, ', signature: 'EqQBCkgIARABGAIiQL2U' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'thinking', thinking: 'then compare.', signature: 'ErUBCkYIBhgCIkAgx' },
    ];
    const { input } = mapMessagesRequest({
      ...BASE,
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            ...blocks,
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '21 C' }] },
        {
          role: 'assistant',
          // What this service writes for reasoning nobody signed (an OpenAI-compatible model).
          content: [
            { type: 'thinking', thinking: 'Warm enough.', signature: '' },
            { type: 'text', text: 'Paris: 21 C.' },
          ],
        },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(input.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Check both cities, then compare.',
      thinking_blocks: blocks,
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(input.messages[3]).toEqual({
      role: 'assistant',
      content: 'Paris: 21 C.',
      reasoning_content: 'Warm enough.',
    });
  });

  it('refuses a malformed reasoning block at its path', () => {
    const at = (block: unknown) =>
      refusal({
        ...BASE,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [block] },
        ],
      });
    const expectField = (block: unknown, code: string, param: string) =>
      expect(at(block)).toMatchObject({ status: 400, code, param });
    expectField({ type: 'thinking', thinking: 'x' }, 'invalid_request', 'messages.1.content.0.signature');
    expectField({ type: 'thinking', signature: 's' }, 'invalid_request', 'messages.1.content.0.thinking');
    expectField({ type: 'thinking', signature: '' }, 'invalid_request', 'messages.1.content.0.thinking');
    expectField(
      { type: 'thinking', thinking: 1, signature: 's' },
      'invalid_request',
      'messages.1.content.0.thinking',
    );
    expectField(
      { type: 'thinking', thinking: 'x', signature: 5 },
      'invalid_request',
      'messages.1.content.0.signature',
    );
    expectField({ type: 'redacted_thinking' }, 'invalid_request', 'messages.1.content.0.data');
    expectField({ type: 'redacted_thinking', data: '' }, 'invalid_request', 'messages.1.content.0.data');
    // Reasoning belongs to the model's turns.
    expect(
      refusal({
        ...BASE,
        messages: [{ role: 'user', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }],
      }),
    ).toMatchObject({ code: 'unsupported_parameter', param: 'messages.0.content.0' });
  });

  it('passes values through untouched and treats null fields as absent', () => {
    const mapped = mapMessagesRequest({
      ...BASE,
      max_tokens: -5,
      temperature: 9,
      messages: [],
      top_k: null,
      metadata: null,
    });
    expect(mapped.input).toEqual({ messages: [], max_tokens: -5, temperature: 9 });
    expect(mapped.ignored).toEqual([]);
  });

  it.each([
    ['models', ['a']],
    ['route', 'fallback'],
    ['provider', { order: ['x'] }],
    ['transforms', ['middle-out']],
    ['plugins', [{ id: 'web' }]],
    ['usage', { include: true }],
    ['service_tier', 'auto'],
    ['container', 'c'],
    ['mcp_servers', []],
    ['output_format', { type: 'json_schema' }],
    ['reasoning_effort', 'high'],
    ['response_format', { type: 'json_object' }],
    ['seed', 1],
  ])('refuses %s (aggregator or unlisted field)', (field, value) => {
    expect(refusal({ ...BASE, messages: [], [field]: value })).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'compat.unsupported_parameter',
      params: { param: field },
      param: field,
    });
  });

  it.each([
    [{ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools.0', 'web_search_20250305'],
    [
      {
        tools: [
          { name: 'a', input_schema: {} },
          { type: 'bash_20250124', name: 'bash' },
        ],
      },
      'tools.1',
      'bash_20250124',
    ],
    [
      { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }] },
      'messages.0.content.0',
      'document',
    ],
    [
      { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }] },
      'messages.0.content.0.source',
      'file',
    ],
    [
      {
        messages: [
          { role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'web_search' }] },
        ],
      },
      'messages.0.content.0',
      'server_tool_use',
    ],
    [
      {
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't', content: [{ type: 'search_result', source: 's' }] },
            ],
          },
        ],
      },
      'messages.1.content.0.content.0',
      'search_result',
    ],
    [{ system: [{ type: 'image', source: {} }] }, 'system.0', 'image'],
  ])('refuses an unsupported type with its dot path (%#)', (fields, param, type) => {
    expect(refusal({ ...BASE, messages: [], ...fields })).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'compat.unsupported_type',
      params: { param, type },
      param,
    });
  });

  it.each([
    ['x', 'request.body_required', null],
    [{ max_tokens: 1, messages: [] }, 'request.missing_field', 'model'],
    [{ model: 'm', messages: [] }, 'request.missing_field', 'max_tokens'],
    [{ model: 'm', max_tokens: 1 }, 'request.missing_field', 'messages'],
    [{ ...BASE, messages: {} }, 'request.invalid_field', 'messages'],
    [{ ...BASE, messages: [], stream: 1 }, 'request.invalid_field', 'stream'],
    [{ ...BASE, messages: [{ role: 'system', content: 'x' }] }, 'request.invalid_field', 'messages.0.role'],
    [{ ...BASE, messages: [{ role: 'user', content: 3 }] }, 'request.invalid_field', 'messages.0.content'],
    [
      { ...BASE, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      'request.missing_field',
      'messages.0.content.0.text',
    ],
    [
      {
        ...BASE,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', data: 'x' } }] }],
      },
      'request.missing_field',
      'messages.0.content.0.source.media_type',
    ],
    [
      { ...BASE, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] },
      'request.missing_field',
      'messages.0.content.0.tool_use_id',
    ],
    [
      {
        ...BASE,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }],
      },
      'request.invalid_field',
      'messages.0.content.0.input',
    ],
    [
      {
        ...BASE,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'other', content: 'x' }] },
        ],
      },
      'request.invalid_field',
      'messages.1.content.0.tool_use_id',
    ],
    [{ ...BASE, messages: [], system: 5 }, 'request.invalid_field', 'system'],
    [{ ...BASE, messages: [], tools: [{ name: 'f' }] }, 'request.missing_field', 'tools.0.input_schema'],
    [{ ...BASE, messages: [], tools: [{ input_schema: {} }] }, 'request.missing_field', 'tools.0.name'],
    [{ ...BASE, messages: [], tool_choice: 'auto' }, 'request.invalid_field', 'tool_choice'],
    [{ ...BASE, messages: [], tool_choice: { type: 'some' } }, 'request.invalid_field', 'tool_choice.type'],
    [{ ...BASE, messages: [], tool_choice: { type: 'tool' } }, 'request.missing_field', 'tool_choice.name'],
    [
      { ...BASE, messages: [], tool_choice: { type: 'auto', disable_parallel_tool_use: 'yes' } },
      'request.invalid_field',
      'tool_choice.disable_parallel_tool_use',
    ],
  ])('refuses a missing or malformed field as invalid_request (%#)', (body, messageId, param) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_request', messageId, param });
  });
});
