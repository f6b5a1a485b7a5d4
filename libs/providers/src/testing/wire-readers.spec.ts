import {
  WireFormatError,
  readAnthropicMessagesRequest,
  readGeminiGenerateRequest,
  readOpenAiChatRequest,
  type WireTurn,
} from './wire-readers';

const PNG = 'iVBORw0KGgo=';
const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

function turn(role: WireTurn['role'], parts: Partial<Omit<WireTurn, 'role'>>): WireTurn {
  return { role, texts: [], images: [], toolCalls: [], toolResults: [], thinking: [], ...parts };
}

/** The conversation every reader's valid body below carries, in neutral terms. */
const CONVERSATION: WireTurn[] = [
  turn('user', {
    texts: ['Weather in Rome?', 'Here is a photo.'],
    images: [
      { kind: 'url', url: 'https://example.com/rome.png' },
      { kind: 'bytes', mediaType: 'image/png', base64: PNG },
    ],
  }),
  turn('assistant', {
    texts: ['Checking.'],
    toolCalls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Rome' } }],
  }),
  turn('tool', { toolResults: [{ id: 'call_1', content: '21 C, sunny' }] }),
  turn('user', { texts: ['Thanks!'] }),
];

describe('readOpenAiChatRequest', () => {
  const body = () => ({
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
      { role: 'user', content: 'Weather in Rome?' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is a photo.' },
          { type: 'image_url', image_url: { url: 'https://example.com/rome.png' } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '21 C, sunny' },
      { role: 'user', content: 'Thanks!', name: 'ada' },
    ],
    max_tokens: 300,
    temperature: 0.2,
    top_p: 0.9,
    presence_penalty: 0.5,
    frequency_penalty: -0.5,
    stop: 'END',
    seed: 7,
    tools: [
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: SCHEMA } },
    ],
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
    parallel_tool_calls: false,
    response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA, strict: true } },
    reasoning_effort: 'high',
    stream: true,
    stream_options: { include_usage: true },
  });

  it('reads a valid body into the neutral form; format fields it has no place for go to extras', () => {
    expect(readOpenAiChatRequest(body())).toEqual({
      model: 'gpt-test',
      system: ['Be brief.', 'Use metric units.'],
      turns: CONVERSATION,
      maxTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      stop: ['END'],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: SCHEMA }],
      toolChoice: { name: 'get_weather' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_schema', name: 'answer', schema: SCHEMA, strict: true },
      reasoning: { effort: 'high' },
      stream: true,
      includeUsage: true,
      extras: { seed: 7, 'messages[6].name': 'ada' },
    });
  });

  it('throws on a field that is not part of the format, naming its path', () => {
    expect(() => readOpenAiChatRequest({ ...body(), thinking: { type: 'enabled' } })).toThrow(
      WireFormatError,
    );
    expect(() => readOpenAiChatRequest({ ...body(), top_k: 40 })).toThrow(/top_k is not a field/);
    const message = body();
    (message.messages[2] as Record<string, unknown>).reasoning_content = 'hm';
    expect(() => readOpenAiChatRequest(message)).toThrow(/messages\[2\]\.reasoning_content is not a field/);
  });

  it('throws on a wrong type or a value out of range', () => {
    expect(() => readOpenAiChatRequest({ ...body(), temperature: '0.2' })).toThrow(
      /temperature must be a number/,
    );
    expect(() => readOpenAiChatRequest({ ...body(), temperature: 2.5 })).toThrow(
      /temperature must be within/,
    );
    expect(() => readOpenAiChatRequest({ ...body(), max_tokens: 1.5 })).toThrow(
      /max_tokens must be an integer/,
    );
    expect(() => readOpenAiChatRequest({ ...body(), stream: undefined })).toThrow(
      /stream_options is only allowed/,
    );
    expect(() => readOpenAiChatRequest({ ...body(), max_completion_tokens: 5 })).toThrow(
      /cannot both be set/,
    );
  });

  it('throws on tool messages that do not pair with the calls, as the API does', () => {
    const unanswered = body();
    unanswered.messages.splice(5, 1);
    expect(() => readOpenAiChatRequest(unanswered)).toThrow(/call_1 have no tool message/);
    const stray = body();
    (stray.messages[5] as { tool_call_id: string }).tool_call_id = 'call_9';
    expect(() => readOpenAiChatRequest(stray)).toThrow(/answers no call/);
  });

  it('reads the OpenAI-compatible extensions only when asked', () => {
    const extended = {
      ...body(),
      top_k: 40,
      min_p: 0.05,
      top_a: 0.1,
      repetition_penalty: 1.1,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello', reasoning_content: 'Greet back.' },
        { role: 'user', content: 'Bye' },
      ],
    };
    expect(() => readOpenAiChatRequest(extended)).toThrow(WireFormatError);
    expect(readOpenAiChatRequest(extended, { extensions: true })).toMatchObject({
      topK: 40,
      minP: 0.05,
      topA: 0.1,
      repetitionPenalty: 1.1,
      turns: [
        turn('user', { texts: ['Hi'] }),
        turn('assistant', { texts: ['Hello'], thinking: [{ text: 'Greet back.' }] }),
        turn('user', { texts: ['Bye'] }),
      ],
    });
  });
});

describe('readAnthropicMessagesRequest', () => {
  const body = () => ({
    model: 'claude-test',
    max_tokens: 300,
    system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Rome?' },
          { type: 'text', text: 'Here is a photo.' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/rome.png' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: '21 C, sunny' }] },
          { type: 'text', text: 'Thanks!' },
        ],
      },
    ],
    temperature: 0.2,
    top_p: 0.9,
    top_k: 40,
    stop_sequences: ['END'],
    tools: [{ name: 'get_weather', description: 'Weather', input_schema: SCHEMA }],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
    metadata: { user_id: 'u1' },
    stream: true,
  });

  it('reads a valid body into the neutral form; format fields it has no place for go to extras', () => {
    expect(readAnthropicMessagesRequest(body())).toEqual({
      model: 'claude-test',
      system: ['Be brief.'],
      turns: CONVERSATION,
      maxTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: SCHEMA }],
      toolChoice: 'required',
      parallelToolCalls: false,
      stream: true,
      extras: { 'system[0].cache_control': { type: 'ephemeral' }, metadata: { user_id: 'u1' } },
    });
  });

  it('reads thinking blocks sent back and the thinking configuration', () => {
    const read = readAnthropicMessagesRequest({
      model: 'claude-test',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      output_config: { effort: 'high', format: { type: 'json_schema', schema: SCHEMA } },
      messages: [
        { role: 'user', content: 'Weather in Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'A tool call.', signature: 'sig==' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'failed', is_error: true }],
        },
      ],
    });
    expect(read.turns[1]).toEqual(
      turn('assistant', {
        thinking: [{ text: 'A tool call.', signature: 'sig==' }, { redacted: 'opaque' }],
        toolCalls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Rome' } }],
      }),
    );
    expect(read.turns[2]).toEqual(
      turn('tool', { toolResults: [{ id: 'call_1', content: 'failed', isError: true }] }),
    );
    expect(read.reasoning).toEqual({ enabled: true, budgetTokens: 2048, effort: 'high' });
    expect(read.responseFormat).toEqual({ type: 'json_schema', schema: SCHEMA });
  });

  it('throws on a field that is not part of the format, naming its path', () => {
    expect(() => readAnthropicMessagesRequest({ ...body(), frequency_penalty: 1 })).toThrow(
      /frequency_penalty is not a field/,
    );
    const inner = body();
    (inner.messages[0]!.content[0] as Record<string, unknown>).image_url = 'x';
    expect(() => readAnthropicMessagesRequest(inner)).toThrow(/messages\[0\]\.content\[0\]\.image_url/);
  });

  it('throws on a wrong type, and on what the API rejects with a 400', () => {
    expect(() => readAnthropicMessagesRequest({ ...body(), max_tokens: '300' })).toThrow(
      /max_tokens must be an integer/,
    );
    expect(() => readAnthropicMessagesRequest({ ...body(), temperature: 1.5 })).toThrow(
      /temperature must be within/,
    );
    const { max_tokens: _dropped, ...missing } = body();
    expect(() => readAnthropicMessagesRequest(missing)).toThrow(/max_tokens must be an integer/);
    expect(() =>
      readAnthropicMessagesRequest({ ...body(), thinking: { type: 'enabled', budget_tokens: 2048 } }),
    ).toThrow(/with thinking/);
    const unanswered = body();
    unanswered.messages[2]!.content.shift();
    expect(() => readAnthropicMessagesRequest(unanswered)).toThrow(/does not answer the tool_use ids call_1/);
    // API version 2026-10-21 removed the sampling parameters.
    expect(() => readAnthropicMessagesRequest(body(), { version: '2026-10-21' })).toThrow(
      /temperature is not a field/,
    );
  });
});

describe('readGeminiGenerateRequest', () => {
  const body = () => ({
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [
      {
        role: 'user',
        parts: [
          { text: 'Weather in Rome?' },
          { text: 'Here is a photo.' },
          { fileData: { fileUri: 'https://example.com/rome.png' } },
          { inlineData: { mimeType: 'image/png', data: PNG } },
        ],
      },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'get_weather', response: { output: '21 C, sunny' } } },
          { text: 'Thanks!' },
        ],
      },
    ],
    tools: [
      {
        functionDeclarations: [{ name: 'get_weather', description: 'Weather', parametersJsonSchema: SCHEMA }],
      },
    ],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    generationConfig: {
      maxOutputTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: SCHEMA,
      thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: true },
    },
  });

  it('reads a valid body into the neutral form; format fields it has no place for go to extras', () => {
    const expected = CONVERSATION.map((t) => ({ ...t }));
    expected[2] = turn('tool', {
      toolResults: [{ id: 'call_1', name: 'get_weather', content: '21 C, sunny' }],
    });
    expect(readGeminiGenerateRequest(body())).toEqual({
      system: ['Be brief.'],
      turns: expected,
      maxTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      stop: ['END'],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: SCHEMA }],
      toolChoice: { name: 'get_weather' },
      responseFormat: { type: 'json_schema', schema: SCHEMA },
      reasoning: { effort: 'low', includeThoughts: true },
      extras: { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] },
    });
  });

  it('reads thought parts, signatures and function responses by the output/error convention', () => {
    const read = readGeminiGenerateRequest({
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Use the tool.', thought: true, thoughtSignature: 'c2ln' },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } }, thoughtSignature: 'c2lnMg==' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { error: 'down' } } }] },
      ],
    });
    expect(read.turns.slice(1)).toEqual([
      turn('assistant', {
        thinking: [{ text: 'Use the tool.', signature: 'c2ln' }],
        toolCalls: [{ name: 'get_weather', args: { city: 'Rome' }, signature: 'c2lnMg==' }],
      }),
      turn('tool', { toolResults: [{ name: 'get_weather', content: 'down', isError: true }] }),
    ]);
  });

  it('throws on a field that is not part of the format, naming its path', () => {
    expect(() => readGeminiGenerateRequest({ ...body(), generation_config: {} })).toThrow(
      /generation_config is not a field/,
    );
    const config = body();
    (config.generationConfig as Record<string, unknown>).max_tokens = 5;
    expect(() => readGeminiGenerateRequest(config)).toThrow(/generationConfig\.max_tokens is not a field/);
  });

  it('throws on a wrong type, and on what the API rejects', () => {
    const typed = body();
    typed.generationConfig.maxOutputTokens = '300' as never;
    expect(() => readGeminiGenerateRequest(typed)).toThrow(/maxOutputTokens must be an integer/);
    expect(() =>
      readGeminiGenerateRequest({ contents: [{ role: 'function', parts: [{ text: 'x' }] }] }),
    ).toThrow(/role must be one of user, model/);
    expect(() =>
      readGeminiGenerateRequest({ contents: [{ role: 'user', parts: [{ text: 'x', inlineData: {} }] }] }),
    ).toThrow(/exactly one kind of data/);
    const schemaWithoutJson = body();
    delete (schemaWithoutJson.generationConfig as Record<string, unknown>).responseMimeType;
    expect(() => readGeminiGenerateRequest(schemaWithoutJson)).toThrow(/needs responseMimeType/);
  });
});
