import { thinkingToken } from '../canonical/reasoning';
import { ProtocolError } from '../canonical/text-input';
import { mapResponsesRequest } from './request';

const refusal = (body: unknown): ProtocolError => {
  try {
    mapResponsesRequest(body);
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
};

describe('mapResponsesRequest', () => {
  it('maps a string input and instructions (the docs quickstart shape)', () => {
    const mapped = mapResponsesRequest({
      model: 'openai/gpt-5',
      instructions: 'Talk like a pirate.',
      input: 'Are semicolons optional in JavaScript?',
    });
    expect(mapped).toEqual({
      model: 'openai/gpt-5',
      input: {
        messages: [
          { role: 'system', content: 'Talk like a pirate.' },
          { role: 'user', content: 'Are semicolons optional in JavaScript?' },
        ],
      },
      stream: false,
      includeUsage: true,
      ignored: [],
      paths: { messages: 'input' },
    });
  });

  it('maps a conversation with images, a function call round trip and every setting', () => {
    const mapped = mapResponsesRequest({
      model: 'm',
      input: [
        { role: 'developer', content: 'Answer in French.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this image, and the weather in Paris?' },
            { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Un chat. ', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_a',
          name: 'weather',
          arguments: '{"city":"Paris"}',
        },
        { type: 'function_call', call_id: 'call_b', name: 'time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
        { type: 'function_call_output', call_id: 'call_b', output: [{ type: 'input_text', text: '12:00' }] },
      ],
      max_output_tokens: 512,
      temperature: 0.2,
      top_p: 0.9,
      parallel_tool_calls: false,
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { type: 'function', name: 'time' },
      ],
      tool_choice: { type: 'function', name: 'weather' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning: { effort: 'low', summary: 'auto' },
      stream: true,
      user: 'u1',
      metadata: { a: 'b' },
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(mapped.stream).toBe(true);
    expect(mapped.ignored).toEqual(['user', 'metadata', 'store', 'include', 'reasoning.summary']);
    expect(mapped.input).toEqual({
      messages: [
        { role: 'developer', content: 'Answer in French.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image, and the weather in Paris?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Un chat. ',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: '12:00' }] },
      ],
      max_tokens: 512,
      temperature: 0.2,
      top_p: 0.9,
      parallel_tool_calls: false,
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            strict: true,
          },
        },
        { type: 'function', function: { name: 'time' } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
      reasoning_effort: 'low',
    });
    expect(mapped.paths).toEqual({
      messages: 'input',
      max_tokens: 'max_output_tokens',
      temperature: 'temperature',
      top_p: 'top_p',
      parallel_tool_calls: 'parallel_tool_calls',
      tools: 'tools',
      tool_choice: 'tool_choice',
      response_format: 'text.format',
      reasoning_effort: 'reasoning.effort',
    });
  });

  it('opens an assistant message for a function call that follows a user turn', () => {
    const { input } = mapResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'ok' },
      ],
    });
    expect(input.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('reads reasoning items back: their summary as reasoning_content, our encrypted_content as the block', () => {
    const signed = { type: 'thinking' as const, thinking: 'Look it up.', signature: 'EqQBCkgIARAB' };
    const redacted = { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3' };
    const mapped = mapResponsesRequest({
      model: 'm',
      include: ['reasoning.encrypted_content'],
      input: [
        { role: 'user', content: 'Weather?' },
        {
          type: 'reasoning',
          id: 'rs_req_1',
          summary: [{ type: 'summary_text', text: 'Look it up.' }],
          encrypted_content: thinkingToken(signed),
        },
        { type: 'reasoning', id: 'rs_req_1_1', summary: [], encrypted_content: thinkingToken(redacted) },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'c', name: 'weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'sunny' },
        // An unsigned item (an upstream that does not sign, or reasoning_text of another server) and a message.
        { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Sunny, ' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'say so.' }] },
        { role: 'assistant', content: 'Sunny.' },
        // From a conversation that began at OpenAI: its encrypted reasoning means nothing here.
        { type: 'reasoning', summary: [], encrypted_content: 'gAAAAABoX2fzk4M8yJ3X' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(mapped.input.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_content: 'Look it up.',
        thinking_blocks: [signed, redacted],
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'sunny' },
      { role: 'assistant', content: 'Sunny.', reasoning_content: 'Sunny, say so.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(mapped.ignored).toEqual(['include', 'input.9.encrypted_content']);
  });

  it('gives a turn of reasoning and function calls only null content', () => {
    const signed = { type: 'thinking' as const, thinking: '', signature: 'sig' };
    const { input } = mapResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.' },
        { type: 'reasoning', summary: [], encrypted_content: thinkingToken(signed) },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
    });
    expect(input.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Hello.' },
      {
        role: 'assistant',
        content: null,
        thinking_blocks: [signed],
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
  });

  it('refuses a malformed reasoning item at its path', () => {
    const at = (item: unknown) => refusal({ model: 'm', input: [{ role: 'user', content: 'x' }, item] });
    const expectField = (item: unknown, code: string, param: string) =>
      expect(at(item)).toMatchObject({ status: 400, code, param });
    expectField({ type: 'reasoning', summary: 'x' }, 'invalid_request', 'input.1.summary');
    expectField(
      { type: 'reasoning', summary: [{ type: 'summary_text' }] },
      'invalid_request',
      'input.1.summary.0.text',
    );
    expectField(
      { type: 'reasoning', summary: [{ type: 'reasoning_text', text: 'x' }] },
      'unsupported_parameter',
      'input.1.summary.0',
    );
    expectField({ type: 'reasoning', content: [7] }, 'invalid_request', 'input.1.content.0');
    expectField(
      { type: 'reasoning', summary: [], encrypted_content: 5 },
      'invalid_request',
      'input.1.encrypted_content',
    );
    // A token of ours that does not decode to a block: the client changed it.
    const broken = Buffer.from('thinking-block/1\n{"type":"thinking"}').toString('base64');
    expectField(
      { type: 'reasoning', summary: [], encrypted_content: broken },
      'invalid_request',
      'input.1.encrypted_content',
    );
  });

  it('passes sampling values through untouched and maps json_object, text and plain tool choices', () => {
    const { input } = mapResponsesRequest({
      model: 'm',
      input: 'x',
      temperature: 7,
      max_output_tokens: 'lots',
      text: { format: { type: 'json_object' } },
      tool_choice: 'required',
    });
    expect(input).toMatchObject({
      temperature: 7,
      max_tokens: 'lots',
      response_format: { type: 'json_object' },
      tool_choice: 'required',
    });
    expect(
      mapResponsesRequest({ model: 'm', input: 'x', text: { format: { type: 'text' } } }).input
        .response_format,
    ).toEqual({
      type: 'text',
    });
  });

  it('treats null fields as absent', () => {
    const mapped = mapResponsesRequest({
      model: 'm',
      input: 'x',
      previous_response_id: null,
      temperature: null,
      user: null,
    });
    expect(mapped.input).toEqual({ messages: [{ role: 'user', content: 'x' }] });
    expect(mapped.ignored).toEqual([]);
  });

  it('translates an aggregator-style reasoning object: enabled false is none, other keys ignored', () => {
    const mapped = mapResponsesRequest({
      model: 'm',
      input: 'x',
      reasoning: { enabled: false, max_tokens: 100 },
    });
    expect(mapped.input.reasoning_effort).toBe('none');
    expect(mapped.paths.reasoning_effort).toBe('reasoning.enabled');
    expect(mapped.ignored).toEqual(['reasoning.max_tokens']);
  });

  it('refuses previous_response_id with its own explanation (rule 5)', () => {
    const error = refusal({ model: 'm', input: 'x', previous_response_id: 'resp_1' });
    expect(error).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'responses.previous_response_id',
      param: 'previous_response_id',
    });
  });

  it.each([
    ['models', ['a', 'b']],
    ['route', 'fallback'],
    ['provider', { order: ['x'] }],
    ['transforms', ['middle-out']],
    ['plugins', [{ id: 'web' }]],
    ['usage', { include: true }],
  ])('refuses the aggregator field %s (rule 8)', (field, value) => {
    expect(refusal({ model: 'm', input: 'x', [field]: value })).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'compat.unsupported_parameter',
      params: { param: field },
      param: field,
    });
  });

  it.each([
    ['top_logprobs', 2],
    ['stop', ['x']],
    ['top_k', 3],
    ['seed', 1],
    ['truncation', 'auto'],
    ['conversation', 'conv_1'],
    ['prompt', { id: 'pmpt_1' }],
    ['background', true],
    ['service_tier', 'flex'],
    ['max_tool_calls', 3],
  ])('refuses %s, which the mapping table does not list', (field, value) => {
    expect(refusal({ model: 'm', input: 'x', [field]: value })).toMatchObject({
      code: 'unsupported_parameter',
      param: field,
    });
  });

  it.each([
    [{ tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] }, 'tools.1', 'web_search'],
    [{ tools: [{ type: 'file_search', vector_store_ids: ['vs'] }] }, 'tools.0', 'file_search'],
    [{ tool_choice: { type: 'web_search_preview' } }, 'tool_choice', 'web_search_preview'],
    [{ text: { format: { type: 'grammar' } } }, 'text.format', 'grammar'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input.0', 'item_reference'],
    [{ input: [{ type: 'web_search_call', id: 'ws' }] }, 'input.0', 'web_search_call'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      'input.0.content.0',
      'input_file',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] },
      'input.0.content.0.file_id',
      'file_id',
    ],
    [
      { input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] },
      'input.0.content.0',
      'input_image',
    ],
  ])('refuses an unsupported type with its dot path (%#)', (fields, param, type) => {
    expect(refusal({ model: 'm', input: 'x', ...fields })).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'compat.unsupported_type',
      params: { param, type },
      param,
    });
  });

  it('refuses text.verbosity, which has no canonical field', () => {
    expect(refusal({ model: 'm', input: 'x', text: { verbosity: 'low' } })).toMatchObject({
      param: 'text.verbosity',
    });
  });

  it.each([
    [[], 'request.body_required', null],
    [{ input: 'x' }, 'request.missing_field', 'model'],
    [{ model: 'm' }, 'request.missing_field', 'input'],
    [{ model: 'm', input: 3 }, 'request.invalid_field', 'input'],
    [{ model: 'm', input: 'x', instructions: ['a'] }, 'request.invalid_field', 'instructions'],
    [{ model: 'm', input: 'x', stream: 'yes' }, 'request.invalid_field', 'stream'],
    [{ model: 'm', input: [{ role: 'tool', content: 'x' }] }, 'request.invalid_field', 'input.0.role'],
    [{ model: 'm', input: [{ role: 'user', content: 5 }] }, 'request.invalid_field', 'input.0.content'],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] },
      'request.missing_field',
      'input.0.content.0.text',
    ],
    [
      { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      'request.missing_field',
      'input.0.call_id',
    ],
    [
      {
        model: 'm',
        input: [
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c' },
        ],
      },
      'request.missing_field',
      'input.1.output',
    ],
    [
      {
        model: 'm',
        input: [
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'other', output: 'x' },
        ],
      },
      'request.invalid_field',
      'input.1.call_id',
    ],
    [{ model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'request.missing_field', 'tools.0.name'],
    [{ model: 'm', input: 'x', tool_choice: 'sometimes' }, 'request.invalid_field', 'tool_choice'],
    [
      { model: 'm', input: 'x', tool_choice: { type: 'function' } },
      'request.missing_field',
      'tool_choice.name',
    ],
  ])('refuses a missing or malformed field as invalid_request (%#)', (body, messageId, param) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_request', messageId, param });
  });
});
