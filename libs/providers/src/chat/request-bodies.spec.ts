import type { ChatRequest } from '@gen/contracts';
import { anthropicMessagesBody } from './anthropic-messages.adapter';
import { geminiGenerateBody } from './gemini-generate.adapter';
import { openAiChatBody } from './openai-chat.adapter';
import type { ReadImages } from './request-parts';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const FILE = 'service://files/fil_abc';
const HTTPS = 'https://images.example/cat.jpg';
/** What the router read for the adapters that want bytes: the account's file, and the https image for Gemini. */
const READ: ReadImages = new Map([
  [FILE, { mediaType: 'image/png', base64: 'RklMRQ==' }],
  [HTTPS, { mediaType: 'image/jpeg', base64: 'SFRUUFM=' }],
]);

/** A request using every canonical field: what each upstream body must carry, in that upstream's terms. */
const FULL: ChatRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'developer', content: 'answer in French' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what are these?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
        { type: 'image_url', image_url: { url: HTTPS } },
        { type: 'image_url', image_url: { url: FILE } },
      ],
    },
    {
      role: 'assistant',
      content: 'let me look',
      reasoning_content: 'I should call the tool',
      thinking_blocks: [
        { type: 'thinking', thinking: 'I should call the tool', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"n":1}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'three cats' },
  ],
  max_tokens: 8000,
  temperature: 0.3,
  top_p: 0.9,
  top_k: 40,
  min_p: 0.05,
  top_a: 0.1,
  frequency_penalty: 0.5,
  presence_penalty: -0.5,
  repetition_penalty: 1.1,
  stop: ['END', 'STOP'],
  tools: [
    { type: 'function', function: { name: 'look', description: 'looks', parameters: { type: 'object' } } },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  response_format: { type: 'json_schema', json_schema: { name: 'cats', schema: { type: 'object' } } },
  reasoning_effort: 'medium',
};

describe('the canonical request written in each upstream’s terms', () => {
  it('OpenAI-compatible: every field under its own name; the account’s image as a data: URL', () => {
    expect(openAiChatBody(FULL, 'gpt-x', READ)).toEqual({
      model: 'gpt-x',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'system', content: 'answer in French' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what are these?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
            { type: 'image_url', image_url: { url: HTTPS } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,RklMRQ==' } },
          ],
        },
        {
          role: 'assistant',
          content: 'let me look',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"n":1}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'three cats' },
      ],
      max_tokens: 8000,
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      top_a: 0.1,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      repetition_penalty: 1.1,
      stop: ['END', 'STOP'],
      tools: FULL.tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      response_format: FULL.response_format,
      reasoning_effort: 'medium',
    });
  });

  it('Anthropic: images as sources, thinking blocks first and unchanged, thinking from the level', () => {
    expect(anthropicMessagesBody(FULL, 'claude-x', READ)).toEqual({
      model: 'claude-x',
      stream: true,
      system: 'be brief\n\nanswer in French',
      max_tokens: 8000,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what are these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: HTTPS } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'RklMRQ==' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should call the tool', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'let me look' },
            { type: 'tool_use', id: 'call_1', name: 'look', input: { n: 1 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'three cats' }] },
      ],
      // medium: half of max_tokens. Extended thinking takes no temperature nor top_k, and top_p from 0.95.
      thinking: { type: 'enabled', budget_tokens: 4000 },
      top_p: 0.95,
      stop_sequences: ['END', 'STOP'],
      tools: [{ name: 'look', description: 'looks', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
  });

  it('Anthropic without reasoning: the sampling fields it has names for; a forced tool keeps thinking off', () => {
    const plain: ChatRequest = { ...FULL, reasoning_effort: undefined, tool_choice: 'required' };
    delete plain.reasoning_effort;
    const body = anthropicMessagesBody(plain, 'claude-x', READ);
    expect(body).toMatchObject({ temperature: 0.3, top_p: 0.9, top_k: 40, tool_choice: { type: 'any' } });
    expect(body).not.toHaveProperty('thinking');
    const forced = anthropicMessagesBody({ ...FULL, tool_choice: 'required' }, 'claude-x', READ);
    expect(forced).toMatchObject({ thinking: { type: 'disabled' }, temperature: 0.3, top_k: 40 });
    for (const field of ['min_p', 'top_a', 'frequency_penalty', 'presence_penalty', 'repetition_penalty']) {
      expect(body).not.toHaveProperty(field);
    }
    expect(anthropicMessagesBody({ ...FULL, reasoning_effort: 'none' }, 'c', READ)).toMatchObject({
      thinking: { type: 'disabled' },
      temperature: 0.3,
    });
  });

  it('Gemini: images inline, generationConfig with topK, penalties, JSON schema and a thinking budget', () => {
    expect(geminiGenerateBody(FULL, READ)).toEqual({
      systemInstruction: { parts: [{ text: 'be brief' }, { text: 'answer in French' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'what are these?' },
            { inlineData: { mimeType: 'image/png', data: PNG } },
            { inlineData: { mimeType: 'image/jpeg', data: 'SFRUUFM=' } },
            { inlineData: { mimeType: 'image/png', data: 'RklMRQ==' } },
          ],
        },
        {
          role: 'model',
          parts: [{ text: 'let me look' }, { functionCall: { id: 'call_1', name: 'look', args: { n: 1 } } }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'look', response: { output: 'three cats' } } }],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'look', description: 'looks', parametersJsonSchema: { type: 'object' } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: {
        maxOutputTokens: 8000,
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        presencePenalty: -0.5,
        frequencyPenalty: 0.5,
        stopSequences: ['END', 'STOP'],
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
        thinkingConfig: { thinkingBudget: 4000, includeThoughts: true },
      },
    });
    expect(geminiGenerateBody({ ...FULL, reasoning_effort: 'none' }, READ)).toMatchObject({
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect(
      geminiGenerateBody({ messages: [], response_format: { type: 'json_object' } }).generationConfig,
    ).toEqual({ responseMimeType: 'application/json' });
  });

  it('an image the adapter needed as bytes but was not read fails the call rather than vanish', () => {
    expect(() => geminiGenerateBody(FULL, new Map())).toThrow('could not be read');
    expect(() => anthropicMessagesBody(FULL, 'c', new Map())).toThrow('could not be read');
    expect(() => openAiChatBody(FULL, 'g', new Map())).toThrow('could not be read');
  });
});
