import { DomainError, translate, type Language } from '@gen/core';
import { buildCatalog } from '../persistence/load-catalog';
import { catalogFile } from '../testing/catalog-fixture';
import { validateModelInput } from './validate-input';

const catalog = buildCatalog(catalogFile());
const image = catalog.find('test/image-1')!;
const chat = catalog.find('acme/talker/chat')!;

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('the input was accepted');
}
const say = (error: DomainError, language: Language) => translate(language, error.messageId, error.params);

describe('model input validation', () => {
  it('refuses an unknown field, naming it (top level and nested)', () => {
    const top = refusal(() => validateModelInput(image, { prompt: 'x', colour: 'red' }));
    expect(top.code).toBe(400);
    expect(top.messageId).toBe('request.unknown_field');
    expect(top.params).toEqual({ field: 'input.colour' });
    const nested = refusal(() => validateModelInput(image, { prompt: 'x', options: { sed: 1 } }));
    expect(nested.params).toEqual({ field: 'input.options.sed' });
    const chatField = refusal(() =>
      validateModelInput(chat, { messages: [{ role: 'user', content: 'x' }], seed: 1 }),
    );
    expect(chatField.params).toEqual({ field: 'input.seed' });
  });

  it('names the field without prefix for the compatibility protocols', () => {
    const error = refusal(() =>
      validateModelInput(
        chat,
        { messages: [{ role: 'user', content: 'x' }], logprobs: true },
        { fieldPrefix: '' },
      ),
    );
    expect(error.params).toEqual({ field: 'logprobs' });
  });

  it('localizes errors with the failing path: en, de, ja', () => {
    const error = refusal(() => validateModelInput(image, { prompt: 'x', width: 4096 }));
    expect(error.messageId).toBe('input.too_large');
    expect(say(error, 'en')).toBe('The field input.width must be at most 2048.');
    expect(say(error, 'de')).toBe('Das Feld input.width darf höchstens 2048 sein.');
    expect(say(error, 'ja')).toBe('フィールド input.width は 2048 以下である必要があります。');
    const missing = refusal(() => validateModelInput(image, { width: 64 }));
    expect(say(missing, 'en')).toBe('Missing required field input.prompt.');
    expect(say(missing, 'de')).toBe('Das Pflichtfeld input.prompt fehlt.');
    expect(say(missing, 'ja')).toContain('input.prompt');
  });

  it.each([
    [
      { prompt: 5 },
      'input.wrong_type',
      { field: 'input.prompt', type: 'string' },
      'The field input.prompt must be of type string.',
    ],
    [
      { prompt: '' },
      'input.too_short',
      { field: 'input.prompt', limit: 1 },
      'The field input.prompt must have at least 1 characters.',
    ],
    [
      { prompt: 'x', width: 10 },
      'input.too_small',
      { field: 'input.width', limit: 64 },
      'The field input.width must be at least 64.',
    ],
    [
      { prompt: 'x', style: 'oil' },
      'input.not_allowed_value',
      { field: 'input.style', allowed: 'ink, pencil' },
      'The field input.style must be one of: ink, pencil.',
    ],
  ])('reports %j as %s', (input, messageId, params, english) => {
    const error = refusal(() => validateModelInput(image, input));
    expect(error.messageId).toBe(messageId);
    expect(error.params).toEqual(params);
    expect(say(error, 'en')).toBe(english);
  });

  it('names the deepest field inside messages of a chat input', () => {
    const part = refusal(() =>
      validateModelInput(chat, { messages: [{ role: 'user', content: [{ type: 'text', txt: 'x' }] }] }),
    );
    expect(part.params).toEqual({ field: 'input.messages.0.content.0.txt' });
    const image = refusal(() =>
      validateModelInput(chat, {
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
      }),
    );
    // This model takes no images: the image part's field is unknown to it.
    expect(image).toMatchObject({
      messageId: 'request.unknown_field',
      params: { field: 'input.messages.0.content.0.image_url' },
    });
    const noText = refusal(() =>
      validateModelInput(chat, { messages: [{ role: 'user', content: [{ type: 'text' }] }] }),
    );
    expect(noText.params).toEqual({ field: 'input.messages.0.content.0.text' });
    const role = refusal(() => validateModelInput(chat, { messages: [{ role: 'robot', content: 'x' }] }));
    expect(role.params['field']).toBe('input.messages.0.role');
    const content = refusal(() => validateModelInput(chat, { messages: [{ role: 'user', content: 5 }] }));
    expect(content).toMatchObject({
      messageId: 'request.invalid_field',
      params: { field: 'input.messages.0.content' },
    });
    const effort = refusal(() =>
      validateModelInput(chat, { messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'medium' }),
    );
    expect(say(effort, 'en')).toBe('The field input.reasoning_effort must be one of: low, high.');
  });

  it('takes an earlier answer’s reasoning on assistant messages only, thinking blocks closed and complete', () => {
    const blocks = [
      { type: 'thinking', thinking: 'Look it up.', signature: 'EqQBCkgIARAB' },
      { type: 'redacted_thinking', data: 'EmwKAhgB' },
    ];
    const assistant = { role: 'assistant', content: 'Sunny.', reasoning_content: 'Look it up.' };
    const input = {
      messages: [
        { role: 'user', content: 'Weather?' },
        { ...assistant, thinking_blocks: blocks },
        { role: 'user', content: 'Thanks' },
      ],
    };
    expect(validateModelInput(chat, input)['messages']).toEqual(input.messages);
    const at = (message: unknown) => refusal(() => validateModelInput(chat, { messages: [message] }));
    for (const field of ['reasoning_content', 'thinking_blocks']) {
      const value = field === 'reasoning_content' ? 'r' : blocks;
      const error = at({ role: 'user', content: 'x', [field]: value });
      expect(error).toMatchObject({
        messageId: 'request.unknown_field',
        params: { field: `input.messages.0.${field}` },
      });
      expect(say(error, 'en')).toBe(`Unknown field input.messages.0.${field}.`);
    }
    expect(at({ role: 'tool', tool_call_id: 'c', content: 'x', reasoning_content: 'r' }).params).toEqual({
      field: 'input.messages.0.reasoning_content',
    });
    const block = (value: unknown) => at({ ...assistant, thinking_blocks: [value] });
    expect(block({ type: 'thinking', thinking: 't', signature: '' })).toMatchObject({
      messageId: 'input.too_short',
      params: { field: 'input.messages.0.thinking_blocks.0.signature', limit: 1 },
    });
    expect(block({ type: 'thinking', thinking: 't', signature: 's', cache_control: {} })).toMatchObject({
      messageId: 'request.unknown_field',
      params: { field: 'input.messages.0.thinking_blocks.0.cache_control' },
    });
    expect(block({ type: 'redacted_thinking' })).toMatchObject({
      messageId: 'request.missing_field',
      params: { field: 'input.messages.0.thinking_blocks.0.data' },
    });
    expect(at({ ...assistant, reasoning_content: 3 })).toMatchObject({
      messageId: 'input.wrong_type',
      params: { field: 'input.messages.0.reasoning_content' },
    });
    expect(block({ type: 'summary', text: 't' })).toMatchObject({
      messageId: 'input.not_allowed_value',
      params: { field: 'input.messages.0.thinking_blocks.0.type' },
    });
    expect(block({ type: 'redacted_thinking', data: 'd', thinking: 't' })).toMatchObject({
      messageId: 'request.unknown_field',
      params: { field: 'input.messages.0.thinking_blocks.0.thinking' },
    });
  });

  it('refuses an input that is not an object', () => {
    for (const input of [null, [], 'x', 3]) {
      expect(refusal(() => validateModelInput(image, input))).toMatchObject({
        messageId: 'input.not_object',
        params: { field: 'input' },
      });
    }
  });

  it('normalizes: defaults applied, keys sorted recursively, the caller object untouched', () => {
    const input = { prompt: 'x', options: { seed: 3 } };
    const normalized = validateModelInput(image, input);
    expect(normalized).toEqual({ options: { seed: 3, tag: 'x' }, prompt: 'x', style: 'ink', width: 512 });
    expect(Object.keys(normalized)).toEqual(['options', 'prompt', 'style', 'width']);
    expect(Object.keys(normalized['options'] as object)).toEqual(['seed', 'tag']);
    expect(input).toEqual({ prompt: 'x', options: { seed: 3 } });
    const text = validateModelInput(chat, { messages: [{ role: 'user', content: 'hi' }] });
    expect(text).toEqual({ max_tokens: 512, messages: [{ content: 'hi', role: 'user' }] });
  });

  it('gives the same normalized input for an omitted default and the default sent explicitly', () => {
    expect(JSON.stringify(validateModelInput(image, { width: 512, prompt: 'x' }))).toBe(
      JSON.stringify(validateModelInput(image, { prompt: 'x', style: 'ink' })),
    );
  });
});
