import { thinkingToken } from '../canonical/reasoning';
import { ProtocolError } from '../canonical/text-input';
import { includesThoughts, mapGenerateContentRequest } from './request';

const CONTEXT = { model: 'google/gemini-2.5-flash', stream: false };
const map = (body: unknown) => mapGenerateContentRequest(body, CONTEXT);
const USER = { role: 'user', parts: [{ text: 'Hi' }] };
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/** The ProtocolError a body raises (the test fails when it raises none). */
function refusal(body: unknown): ProtocolError {
  try {
    map(body);
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('mapGenerateContentRequest: accepted shapes', () => {
  it('takes the model from the URL and the stream flag from the method', () => {
    const mapped = mapGenerateContentRequest({ contents: [USER] }, { model: 'a/b/c', stream: true });
    expect(mapped).toEqual({
      model: 'a/b/c',
      stream: true,
      includeUsage: true,
      ignored: [],
      input: { messages: [{ role: 'user', content: 'Hi' }] },
      paths: { messages: 'contents' },
    });
  });

  it('reads the docs curl shape: snake_case names, a content without role, several system parts', () => {
    const mapped = map({
      system_instruction: { parts: [{ text: 'You are a cat.' }, { text: 'Your name is Neko.' }] },
      contents: [{ parts: [{ text: 'Hello there' }] }],
      generation_config: { max_output_tokens: 100, stop_sequences: ['x'], top_k: 3 },
    });
    expect(mapped.input).toEqual({
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are a cat.' },
            { type: 'text', text: 'Your name is Neko.' },
          ],
        },
        { role: 'user', content: 'Hello there' },
      ],
      max_tokens: 100,
      stop: ['x'],
      top_k: 3,
    });
    expect(mapped.paths).toEqual({
      messages: 'contents',
      max_tokens: 'generation_config.max_output_tokens',
      stop: 'generation_config.stop_sequences',
      top_k: 'generation_config.top_k',
    });
  });

  it('passes sampling values through untouched (the model rules run later)', () => {
    const { input } = map({
      contents: [USER],
      generationConfig: { temperature: 7, topP: '0.5', presencePenalty: 1.5, frequencyPenalty: -1 },
    });
    expect(input).toMatchObject({
      temperature: 7,
      top_p: '0.5',
      presence_penalty: 1.5,
      frequency_penalty: -1,
    });
  });

  it('makes images of inlineData (data: URL) and https fileData, in order with the text', () => {
    const { input } = map({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Compare' },
            { inlineData: { mimeType: 'image/png', data: PNG } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
            { file_data: { file_uri: 'https://example.com/b.webp' } },
          ],
        },
      ],
    });
    expect(input.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'image_url', image_url: { url: 'https://example.com/b.webp' } },
        ],
      },
    ]);
  });

  it('turns URL-safe base64 into the standard alphabet of a data: URL', () => {
    const { input } = map({
      contents: [{ parts: [{ inlineData: { mimeType: 'image/gif', data: 'ab-_' } }] }],
    });
    expect(input.messages[0]?.content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/gif;base64,ab+/' } },
    ]);
  });

  it('numbers calls without ids call_<n> across the conversation and matches responses by name, in order', () => {
    const call = (name: string, args: object) => ({ functionCall: { name, args } });
    const answer = (name: string, response: object) => ({ functionResponse: { name, response } });
    const { input } = map({
      contents: [
        USER,
        {
          role: 'model',
          parts: [{ text: 'Let me look.' }, call('weather', { city: 'Rome' }), call('time', {})],
        },
        {
          role: 'user',
          parts: [
            answer('time', { output: '12:00' }),
            answer('weather', { temp: 21, sky: 'clear' }),
            { text: 'and?' },
          ],
        },
        { role: 'model', parts: [call('weather', { city: 'Oslo' })] },
        { role: 'user', parts: [answer('weather', { content: 'rain' })] },
      ],
    });
    expect(input.messages).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_1', type: 'function', function: { name: 'time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '12:00' },
      { role: 'tool', tool_call_id: 'call_0', content: '{"temp":21,"sky":"clear"}' },
      { role: 'user', content: 'and?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
    ]);
  });

  it('keeps the ids of calls that carry one, and matches two same-name responses by id', () => {
    const { input } = map({
      contents: [
        USER,
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'a1', name: 'f', args: { n: 1 } } },
            { functionCall: { id: 'a2', name: 'f', args: { n: 2 } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'a2', name: 'f', response: { output: 'two' } } },
            { functionResponse: { id: 'a1', name: 'f', response: { output: 'one' } } },
          ],
        },
      ],
    });
    expect(input.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a2', content: 'two' },
      { role: 'tool', tool_call_id: 'a1', content: 'one' },
    ]);
  });

  it('reads thought parts as reasoning_content and ignores signatures that are not ours, naming them', () => {
    const mapped = map({
      contents: [
        USER,
        {
          role: 'model',
          parts: [
            { text: 'secret ', thought: true },
            { text: 'plan', thought: true },
            { text: 'Hello', thoughtSignature: 'c2lnbmF0dXJl' },
            { thoughtSignature: 'skip_thought_signature_validator' },
          ],
        },
        { role: 'user', parts: [{ text: 'Bye' }] },
      ],
    });
    expect(mapped.input.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', reasoning_content: 'secret plan' },
      { role: 'user', content: 'Bye' },
    ]);
    expect(mapped.ignored).toEqual([
      'contents.1.parts.2.thoughtSignature',
      'contents.1.parts.3.thoughtSignature',
    ]);
  });

  it('gives back the signed blocks of our signature parts, in order and unchanged', () => {
    const signed = { type: 'thinking' as const, thinking: 'Call the tool.', signature: 'EqQBCkgIARAB' };
    const redacted = { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3' };
    const mapped = map({
      contents: [
        USER,
        {
          role: 'model',
          parts: [
            { text: 'Call the tool.', thought: true },
            { thoughtSignature: thinkingToken(signed) },
            { thought_signature: thinkingToken(redacted) },
            { functionCall: { id: 'toolu_1', name: 'weather', args: { city: 'Paris' } } },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'toolu_1', name: 'weather', response: { output: '21 C' } } }],
        },
      ],
    });
    expect(mapped.input.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Call the tool.',
      thinking_blocks: [signed, redacted],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(mapped.ignored).toEqual([]);
  });

  it('refuses a signature of ours that was altered, and a signature that is not a string, at its path', () => {
    const broken = Buffer.from('thinking-block/1\n{"type":"redacted_thinking"}').toString('base64');
    const at = (part: unknown) => refusal({ contents: [USER, { role: 'model', parts: [part] }] });
    expect(at({ text: 'x', thoughtSignature: broken })).toMatchObject({
      code: 'invalid_request',
      param: 'contents.1.parts.0.thoughtSignature',
    });
    expect(at({ thoughtSignature: 5 })).toMatchObject({
      code: 'invalid_request',
      param: 'contents.1.parts.0.thoughtSignature',
    });
  });

  it.each([
    [{ thinkingBudget: 0 }, 'none', 'thinkingBudget'],
    [{ thinkingBudget: 1 }, 'low', 'thinkingBudget'],
    [{ thinkingBudget: 1024 }, 'low', 'thinkingBudget'],
    [{ thinkingBudget: 1025 }, 'medium', 'thinkingBudget'],
    [{ thinkingBudget: 8192 }, 'medium', 'thinkingBudget'],
    [{ thinkingBudget: 8193 }, 'high', 'thinkingBudget'],
    [{ thinkingBudget: 32768, includeThoughts: true }, 'high', 'thinkingBudget'],
    [{ thinkingLevel: 'LOW' }, 'low', 'thinkingLevel'],
    [{ thinkingLevel: 'high' }, 'high', 'thinkingLevel'],
    [{ thinkingLevel: 'MINIMAL' }, 'minimal', 'thinkingLevel'],
  ])('thinkingConfig %j is reasoning_effort %s', (thinkingConfig, effort, field) => {
    const mapped = map({ contents: [USER], generationConfig: { thinkingConfig } });
    expect(mapped.input.reasoning_effort).toBe(effort);
    expect(mapped.paths.reasoning_effort).toBe(`generationConfig.thinkingConfig.${field}`);
  });

  it('dynamic thinking (-1), an unspecified level or includeThoughts alone set no reasoning_effort', () => {
    for (const thinkingConfig of [
      { thinkingBudget: -1 },
      { thinkingLevel: 'THINKING_LEVEL_UNSPECIFIED' },
      { includeThoughts: true },
    ]) {
      const mapped = map({ contents: [USER], generationConfig: { thinkingConfig } });
      expect(mapped.input.reasoning_effort).toBeUndefined();
      expect(mapped.paths.reasoning_effort).toBeUndefined();
    }
  });

  it('includesThoughts reads includeThoughts in either spelling, false by default as in Gemini', () => {
    expect(includesThoughts({ generationConfig: { thinkingConfig: { includeThoughts: true } } })).toBe(true);
    expect(includesThoughts({ generation_config: { thinking_config: { include_thoughts: true } } })).toBe(
      true,
    );
    expect(includesThoughts({ generationConfig: { thinkingConfig: { thinkingBudget: 10 } } })).toBe(false);
    expect(includesThoughts({ contents: [] })).toBe(false);
  });

  it('maps the aggregator reasoning object (rule 8): effort, and enabled false as none', () => {
    expect(
      map({ contents: [USER], reasoning: { effort: 'high', max_tokens: 10 } }).input.reasoning_effort,
    ).toBe('high');
    const off = map({ contents: [USER], reasoning: { enabled: false } });
    expect(off.input.reasoning_effort).toBe('none');
    expect(off.paths.reasoning_effort).toBe('reasoning');
  });

  it.each([
    [{ responseMimeType: 'application/json' }, { type: 'json_object' }],
    [{ responseMimeType: 'text/plain' }, { type: 'text' }],
    [
      { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: { a: {} } } },
      {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { a: {} } } },
      },
    ],
    [
      {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'ARRAY',
          maxItems: '3',
          items: {
            type: 'OBJECT',
            properties: {
              recipe_name: { type: 'STRING', example: 'Pie' },
              n: { type: 'INTEGER', nullable: true },
            },
            propertyOrdering: ['recipe_name', 'n'],
          },
        },
      },
      {
        type: 'json_schema',
        json_schema: {
          name: 'response',
          schema: {
            type: 'array',
            maxItems: 3,
            items: {
              type: 'object',
              properties: {
                recipe_name: { type: 'string', examples: ['Pie'] },
                n: { type: ['integer', 'null'] },
              },
            },
          },
        },
      },
    ],
  ])('generationConfig %j is response_format %j', (generationConfig, format) => {
    const mapped = map({ contents: [USER], generationConfig });
    expect(mapped.input.response_format).toEqual(format);
    expect(mapped.paths.response_format).toBe('generationConfig.responseMimeType');
  });

  it.each([
    [{ mode: 'AUTO' }, 'auto'],
    [{ mode: 'NONE' }, 'none'],
    [{ mode: 'ANY' }, 'required'],
    [
      { mode: 'ANY', allowedFunctionNames: ['b'] },
      { type: 'function', function: { name: 'b' } },
    ],
    [{ mode: 'ANY', allowedFunctionNames: ['b', 'a'] }, 'required'],
  ])('functionCallingConfig %j is tool_choice %j', (functionCallingConfig, choice) => {
    const mapped = map({
      contents: [USER],
      tools: [
        { functionDeclarations: [{ name: 'a' }] },
        { functionDeclarations: [{ name: 'b', description: 'B' }] },
      ],
      toolConfig: { functionCallingConfig },
    });
    expect(mapped.input.tool_choice).toEqual(choice);
    expect(mapped.input.tools).toEqual([
      { type: 'function', function: { name: 'a' } },
      { type: 'function', function: { name: 'b', description: 'B' } },
    ]);
    expect(mapped.paths).toMatchObject({ tools: 'tools', tool_choice: 'toolConfig.functionCallingConfig' });
  });

  it('keeps parametersJsonSchema as written and drops a declared response schema', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string', minLength: 1 } },
      additionalProperties: false,
    };
    const { input } = map({
      contents: [USER],
      tools: [
        {
          functionDeclarations: [
            { name: 'search', parametersJsonSchema: schema, response: { type: 'STRING' } },
          ],
        },
      ],
    });
    expect(input.tools).toEqual([{ type: 'function', function: { name: 'search', parameters: schema } }]);
  });

  it('lists safetySettings, candidateCount 1 and responseModalities TEXT as ignored', () => {
    const mapped = map({
      contents: [USER],
      safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }],
      generationConfig: { candidateCount: 1, responseModalities: ['TEXT'] },
    });
    expect(mapped.ignored).toEqual([
      'safetySettings',
      'generationConfig.candidateCount',
      'generationConfig.responseModalities',
    ]);
    expect(mapped.input).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('treats null fields as absent, as proto JSON does', () => {
    const mapped = map({ contents: [USER], tools: null, generationConfig: { temperature: null } });
    expect(mapped.input).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
  });
});

describe('mapGenerateContentRequest: refusals and their param paths', () => {
  it.each([
    ['cachedContent', { contents: [USER], cachedContent: 'cachedContents/abc' }, 'cachedContent'],
    ['the body model field', { model: 'x', contents: [USER] }, 'model'],
    ['labels', { contents: [USER], labels: { a: 'b' } }, 'labels'],
    ['aggregator provider', { contents: [USER], provider: { order: ['x'] } }, 'provider'],
    ['aggregator models', { contents: [USER], models: ['a', 'b'] }, 'models'],
    ['aggregator usage', { contents: [USER], usage: { include: true } }, 'usage'],
    ['googleSearch', { contents: [USER], tools: [{ googleSearch: {} }] }, 'tools.0.googleSearch'],
    ['google_search', { contents: [USER], tools: [{ google_search: {} }] }, 'tools.0.google_search'],
    [
      'codeExecution next to functions',
      { contents: [USER], tools: [{ functionDeclarations: [{ name: 'f' }] }, { codeExecution: {} }] },
      'tools.1.codeExecution',
    ],
    ['urlContext', { contents: [USER], tools: [{ urlContext: {} }] }, 'tools.0.urlContext'],
    [
      'retrievalConfig',
      { contents: [USER], toolConfig: { retrievalConfig: {} } },
      'toolConfig.retrievalConfig',
    ],
    [
      'candidateCount 2',
      { contents: [USER], generationConfig: { candidateCount: 2 } },
      'generationConfig.candidateCount',
    ],
    ['seed', { contents: [USER], generationConfig: { seed: 42 } }, 'generationConfig.seed'],
    [
      'responseLogprobs',
      { contents: [USER], generationConfig: { responseLogprobs: true } },
      'generationConfig.responseLogprobs',
    ],
    ['logprobs', { contents: [USER], generationConfig: { logprobs: 3 } }, 'generationConfig.logprobs'],
    [
      'speechConfig',
      { contents: [USER], generationConfig: { speechConfig: {} } },
      'generationConfig.speechConfig',
    ],
    [
      'image output',
      { contents: [USER], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
      'generationConfig.responseModalities',
    ],
    [
      'an enum mime type',
      { contents: [USER], generationConfig: { responseMimeType: 'text/x.enum' } },
      'generationConfig.responseMimeType',
    ],
    [
      'ANY restricted to a subset of several names',
      {
        contents: [USER],
        tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } },
      },
      'toolConfig.functionCallingConfig.allowedFunctionNames',
    ],
    [
      'VALIDATED mode',
      { contents: [USER], toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } },
      'toolConfig.functionCallingConfig.mode',
    ],
    [
      'executableCode part',
      { contents: [{ parts: [{ executableCode: { language: 'PYTHON', code: '1' } }] }] },
      'contents.0.parts.0.executableCode',
    ],
    [
      'videoMetadata',
      { contents: [{ parts: [{ text: 'x', videoMetadata: {} }] }] },
      'contents.0.parts.0.videoMetadata',
    ],
    [
      'an image in a model turn',
      { contents: [USER, { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] }] },
      'contents.1.parts.0.inlineData',
    ],
    [
      'a function behavior',
      { contents: [USER], tools: [{ functionDeclarations: [{ name: 'f', behavior: 'NON_BLOCKING' }] }] },
      'tools.0.functionDeclarations.0.behavior',
    ],
  ])('%s is unsupported_parameter', (_name, body, param) => {
    const error = refusal(body);
    expect(error).toMatchObject({ status: 400, code: 'unsupported_parameter', param });
    expect(error.params).toMatchObject({ param });
  });

  it.each([
    ['a PDF inline', { mimeType: 'application/pdf', data: 'JVBERi0=' }, 'inlineData', 'application/pdf'],
    ['audio inline', { mimeType: 'audio/wav', data: 'UklGRg==' }, 'inlineData', 'audio/wav'],
    ['a video file', { mimeType: 'video/mp4', fileUri: 'https://x.test/v.mp4' }, 'fileData', 'video/mp4'],
  ])('%s is refused with its mime type', (_name, data, key, mimeType) => {
    const error = refusal({ contents: [{ parts: [{ [key]: data }] }] });
    expect(error).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'generate_content.unsupported_media',
      param: `contents.0.parts.0.${key}.mimeType`,
      params: { mimeType, param: `contents.0.parts.0.${key}.mimeType` },
    });
  });

  it.each([
    'gs://bucket/a.png',
    'http://example.com/a.png',
    'https://generativelanguage/files/x'.replace('https', 'ftp'),
    'files/abc',
  ])('fileUri %s (not https) is refused', (fileUri) => {
    const error = refusal({ contents: [{ parts: [{ fileData: { fileUri } }] }] });
    expect(error).toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      messageId: 'generate_content.file_uri_not_https',
      param: 'contents.0.parts.0.fileData.fileUri',
    });
  });

  it.each([
    ['no body object', [1], null, 'request.body_required'],
    ['no contents', { generationConfig: {} }, 'contents', 'request.missing_field'],
    ['empty contents', { contents: [] }, 'contents', 'request.invalid_field'],
    ['contents not a list', { contents: 'Hi' }, 'contents', 'request.invalid_field'],
    [
      'a content without parts',
      { contents: [{ role: 'user' }] },
      'contents.0.parts',
      'request.missing_field',
    ],
    [
      'an unknown role',
      { contents: [{ role: 'system', parts: [{ text: 'x' }] }] },
      'contents.0.role',
      'request.invalid_field',
    ],
    [
      'two user turns in a row',
      { contents: [USER, { role: 'user', parts: [{ text: 'again' }] }] },
      'contents.1.role',
      'generate_content.roles_not_alternating',
    ],
    [
      'two model turns in a row',
      {
        contents: [
          USER,
          { role: 'model', parts: [{ text: 'a' }] },
          { role: 'model', parts: [{ text: 'b' }] },
        ],
      },
      'contents.2.role',
      'generate_content.roles_not_alternating',
    ],
    [
      'a functionResponse with no call',
      { contents: [{ parts: [{ functionResponse: { name: 'f', response: {} } }] }] },
      'contents.0.parts.0.functionResponse.name',
      'generate_content.unmatched_function_response',
    ],
    [
      'a functionResponse naming another function',
      {
        contents: [
          USER,
          { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'g', response: {} } }] },
        ],
      },
      'contents.2.parts.0.functionResponse.name',
      'generate_content.unmatched_function_response',
    ],
    [
      'a second response to one call',
      {
        contents: [
          USER,
          { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'f', response: {} } },
              { functionResponse: { name: 'f', response: {} } },
            ],
          },
        ],
      },
      'contents.2.parts.1.functionResponse.name',
      'generate_content.unmatched_function_response',
    ],
    [
      'a functionResponse without response',
      {
        contents: [
          USER,
          { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'f' } }] },
        ],
      },
      'contents.2.parts.0.functionResponse.response',
      'request.missing_field',
    ],
    [
      'a functionCall without name',
      { contents: [USER, { role: 'model', parts: [{ functionCall: { args: {} } }] }] },
      'contents.1.parts.0.functionCall.name',
      'request.missing_field',
    ],
    [
      'functionCall args not an object',
      { contents: [USER, { role: 'model', parts: [{ functionCall: { name: 'f', args: '{}' } }] }] },
      'contents.1.parts.0.functionCall.args',
      'request.invalid_field',
    ],
    [
      'a functionCall in a user turn',
      { contents: [{ parts: [{ functionCall: { name: 'f' } }] }] },
      'contents.0.parts.0.functionCall',
      'request.invalid_field',
    ],
    [
      'two data fields in a part',
      { contents: [{ parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: PNG } }] }] },
      'contents.0.parts.0',
      'request.invalid_field',
    ],
    [
      'an empty user part',
      { contents: [{ parts: [{}] }] },
      'contents.0.parts.0.text',
      'request.missing_field',
    ],
    [
      'text not a string',
      { contents: [{ parts: [{ text: 5 }] }] },
      'contents.0.parts.0.text',
      'request.invalid_field',
    ],
    [
      'base64 that is not',
      { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: 'no spaces!' } }] }] },
      'contents.0.parts.0.inlineData.data',
      'request.invalid_field',
    ],
    [
      'inlineData without mimeType',
      { contents: [{ parts: [{ inlineData: { data: PNG } }] }] },
      'contents.0.parts.0.inlineData.mimeType',
      'request.missing_field',
    ],
    [
      'an image in systemInstruction',
      {
        systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] },
        contents: [USER],
      },
      'systemInstruction.parts.0',
      'request.invalid_field',
    ],
    [
      'systemInstruction as a string',
      { systemInstruction: 'be nice', contents: [USER] },
      'systemInstruction',
      'request.invalid_field',
    ],
    [
      'both spellings of a field',
      { contents: [USER], generationConfig: { topK: 1, top_k: 2 } },
      'generationConfig.top_k',
      'generate_content.conflicting_fields',
    ],
    [
      'thinkingBudget with thinkingLevel',
      {
        contents: [USER],
        generationConfig: { thinkingConfig: { thinkingBudget: 10, thinkingLevel: 'LOW' } },
      },
      'generationConfig.thinkingConfig.thinkingLevel',
      'generate_content.conflicting_fields',
    ],
    [
      'a fractional budget',
      { contents: [USER], generationConfig: { thinkingConfig: { thinkingBudget: 1.5 } } },
      'generationConfig.thinkingConfig.thinkingBudget',
      'request.invalid_field',
    ],
    [
      'a budget below -1',
      { contents: [USER], generationConfig: { thinkingConfig: { thinkingBudget: -2 } } },
      'generationConfig.thinkingConfig.thinkingBudget',
      'request.invalid_field',
    ],
    [
      'thinkingConfig and the aggregator reasoning',
      {
        contents: [USER],
        generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
        reasoning: { effort: 'low' },
      },
      'reasoning',
      'generate_content.conflicting_fields',
    ],
    [
      'a schema without application/json',
      { contents: [USER], generationConfig: { responseSchema: { type: 'STRING' } } },
      'generationConfig.responseSchema',
      'generate_content.schema_needs_json',
    ],
    [
      'both schemas',
      {
        contents: [USER],
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: {},
          responseJsonSchema: {},
        },
      },
      'generationConfig.responseJsonSchema',
      'generate_content.conflicting_fields',
    ],
    [
      'parameters and parametersJsonSchema',
      {
        contents: [USER],
        tools: [{ functionDeclarations: [{ name: 'f', parameters: {}, parametersJsonSchema: {} }] }],
      },
      'tools.0.functionDeclarations.0.parametersJsonSchema',
      'generate_content.conflicting_fields',
    ],
    [
      'a declaration without name',
      { contents: [USER], tools: [{ functionDeclarations: [{ description: 'x' }] }] },
      'tools.0.functionDeclarations.0.name',
      'request.missing_field',
    ],
    [
      'allowedFunctionNames with AUTO',
      {
        contents: [USER],
        toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['f'] } },
      },
      'toolConfig.functionCallingConfig.allowedFunctionNames',
      'request.invalid_field',
    ],
    [
      'an unknown mode',
      { contents: [USER], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
      'toolConfig.functionCallingConfig.mode',
      'request.invalid_field',
    ],
  ])('%s is invalid_request', (_name, body, param, messageId) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'invalid_request', param, messageId });
  });
});
