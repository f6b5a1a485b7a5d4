import { type MappedRequest, ProtocolError, type TextInput } from '../canonical/text-input';
import { applyFieldRules, nearestLevel } from './apply-field-rules';
import type { ModelLimits } from './model-limits';

/** A model that accepts everything, with bounds to clamp against. */
const FULL: ModelLimits = {
  maxOutputTokens: 8192,
  parameters: {
    temperature: { minimum: 0, maximum: 2 },
    top_p: { minimum: 0, maximum: 1 },
    top_k: { minimum: 1, maximum: 500 },
    frequency_penalty: { minimum: -2, maximum: 2 },
  },
  reasoningLevels: ['low', 'medium', 'high'],
  maxStopSequences: 4,
  tools: true,
  images: true,
  responseFormats: ['text', 'json_object', 'json_schema'],
};
/** A model that accepts nothing optional. */
const BARE: ModelLimits = {
  maxOutputTokens: 4096,
  parameters: {},
  reasoningLevels: [],
  maxStopSequences: 0,
  tools: false,
  images: false,
  responseFormats: [],
};

const USER = { role: 'user' as const, content: 'Hi' };

function mapped(
  input: Partial<TextInput>,
  paths: MappedRequest['paths'] = {},
  ignored: string[] = [],
): MappedRequest {
  const full: TextInput = { messages: [USER], ...input };
  const named = Object.fromEntries(Object.keys(full).map((k) => [k, k]));
  return {
    model: 'acme/m1',
    input: full,
    stream: false,
    includeUsage: false,
    ignored,
    paths: { ...named, ...paths },
  };
}

function refusal(request: MappedRequest, model: ModelLimits) {
  try {
    applyFieldRules(request, model);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return {
      status: error.status,
      code: error.code,
      param: error.param,
      messageId: error.messageId,
      params: error.params,
    };
  }
  throw new Error('accepted');
}

describe('applyFieldRules: rule 1, ignored fields', () => {
  it('drops every sampling field the model does not list, by the client name', () => {
    const request = mapped(
      {
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        min_p: 0.1,
        top_a: 0.2,
        frequency_penalty: 0,
        presence_penalty: 1,
        repetition_penalty: 1.1,
      },
      { top_p: 'generationConfig.topP' },
    );
    const outcome = applyFieldRules(request, BARE);
    expect(outcome.input).toEqual({ messages: [USER] });
    expect(outcome.ignored).toEqual([
      'temperature',
      'generationConfig.topP',
      'top_k',
      'min_p',
      'top_a',
      'frequency_penalty',
      'presence_penalty',
      'repetition_penalty',
    ]);
    expect(outcome.adjusted).toEqual([]);
  });

  it('keeps the listed sampling fields and drops only the others', () => {
    const outcome = applyFieldRules(mapped({ temperature: 0.5, min_p: 0.1 }), FULL);
    expect(outcome.input).toEqual({ messages: [USER], temperature: 0.5 });
    expect(outcome.ignored).toEqual(['min_p']);
  });

  it('puts the mapper ignored names first', () => {
    const outcome = applyFieldRules(mapped({ min_p: 0.1 }, {}, ['user', 'n']), FULL);
    expect(outcome.ignored).toEqual(['user', 'n', 'min_p']);
  });

  it('drops an empty stop, and any stop on a model without stop sequences', () => {
    for (const stop of ['', []]) {
      const outcome = applyFieldRules(mapped({ stop }), FULL);
      expect(outcome.input).not.toHaveProperty('stop');
      expect(outcome.ignored).toEqual(['stop']);
    }
    const outcome = applyFieldRules(mapped({ stop: ['END'] }, { stop: 'stop_sequences' }), BARE);
    expect(outcome.input).not.toHaveProperty('stop');
    expect(outcome.ignored).toEqual(['stop_sequences']);
  });

  it('drops reasoning_effort on a model without levels, by the client name', () => {
    const outcome = applyFieldRules(
      mapped({ reasoning_effort: 'high' }, { reasoning_effort: 'reasoning.effort' }),
      BARE,
    );
    expect(outcome.input).not.toHaveProperty('reasoning_effort');
    expect(outcome.ignored).toEqual(['reasoning.effort']);
  });

  it('drops reasoning.enabled: false on a model that cannot turn reasoning off, keeps it where none exists', () => {
    const disabling = mapped({ reasoning_effort: 'none' }, { reasoning_effort: 'reasoning.enabled' });
    const off = applyFieldRules(disabling, FULL);
    expect(off.input).not.toHaveProperty('reasoning_effort');
    expect(off.ignored).toEqual(['reasoning.enabled']);
    expect(off.adjusted).toEqual([]);
    const withNone = applyFieldRules(disabling, { ...FULL, reasoningLevels: ['none', 'low'] });
    expect(withNone.input.reasoning_effort).toBe('none');
    expect(withNone.ignored).toEqual([]);
  });
});

describe('applyFieldRules: rule 2, adjusted values', () => {
  it('clamps sampling values to the bounds and lists name=value', () => {
    const outcome = applyFieldRules(
      mapped(
        { temperature: 3.5, top_p: -0.1, top_k: 1000, frequency_penalty: 1.5 },
        { temperature: 'generationConfig.temperature' },
      ),
      FULL,
    );
    expect(outcome.input).toMatchObject({ temperature: 2, top_p: 0, top_k: 500, frequency_penalty: 1.5 });
    expect(outcome.adjusted).toEqual(['generationConfig.temperature=2', 'top_p=0', 'top_k=500']);
    expect(outcome.ignored).toEqual([]);
  });

  it('leaves values at the bounds as they are', () => {
    const outcome = applyFieldRules(mapped({ temperature: 2, top_p: 0 }), FULL);
    expect(outcome.adjusted).toEqual([]);
    expect(outcome.input).toMatchObject({ temperature: 2, top_p: 0 });
  });

  it('clamps max_tokens to the model maximum, by the client name', () => {
    const outcome = applyFieldRules(
      mapped({ max_tokens: 100000 }, { max_tokens: 'max_completion_tokens' }),
      FULL,
    );
    expect(outcome.input.max_tokens).toBe(8192);
    expect(outcome.adjusted).toEqual(['max_completion_tokens=8192']);
    expect(applyFieldRules(mapped({ max_tokens: 8192 }), FULL).adjusted).toEqual([]);
  });

  it('keeps the first maxStopSequences stop entries, and a single string stop as it is', () => {
    const outcome = applyFieldRules(mapped({ stop: ['a', 'b', 'c', 'd', 'e', 'f'] }), FULL);
    expect(outcome.input.stop).toEqual(['a', 'b', 'c', 'd']);
    expect(outcome.adjusted).toEqual(['stop=4']);
    expect(applyFieldRules(mapped({ stop: ['a', 'b', 'c', 'd'] }), FULL).adjusted).toEqual([]);
    expect(applyFieldRules(mapped({ stop: 'a' }), { ...FULL, maxStopSequences: 1 }).input.stop).toBe('a');
  });

  it('moves a level the model lacks to the nearest one, the lower on a tie', () => {
    const adjust = (wanted: string, levels: string[]) =>
      applyFieldRules(mapped({ reasoning_effort: wanted }), { ...FULL, reasoningLevels: levels });
    expect(adjust('max', ['low', 'medium', 'high'])).toMatchObject({
      input: { reasoning_effort: 'high' },
      adjusted: ['reasoning_effort=high'],
    });
    expect(adjust('minimal', ['low', 'high']).input.reasoning_effort).toBe('low');
    // medium is one step from low and from high: the lower one.
    expect(adjust('medium', ['low', 'high']).input.reasoning_effort).toBe('low');
    expect(adjust('xhigh', ['minimal', 'max']).input.reasoning_effort).toBe('max');
    expect(adjust('none', ['minimal', 'high']).input.reasoning_effort).toBe('minimal');
    expect(adjust('high', ['low', 'medium', 'high'])).toMatchObject({
      input: { reasoning_effort: 'high' },
      adjusted: [],
    });
  });

  it('leaves a level outside the known order for the schema validation to refuse', () => {
    const outcome = applyFieldRules(mapped({ reasoning_effort: 'turbo' }), FULL);
    expect(outcome.input.reasoning_effort).toBe('turbo');
    expect(outcome.adjusted).toEqual([]);
  });

  it('does not modify the mapped input', () => {
    const request = mapped({ temperature: 9, stop: ['a', 'b', 'c', 'd', 'e'], min_p: 0.1 });
    const before = structuredClone(request);
    applyFieldRules(request, FULL);
    expect(request).toEqual(before);
    // Every rule of every kind, on a model with none of the fields: dropped, clamped, shortened, levelled.
    const all = mapped({
      temperature: 9,
      top_k: 5,
      stop: ['a', 'b', 'c', 'd', 'e'],
      max_tokens: 1_000_000,
      reasoning_effort: 'high',
    });
    const allBefore = structuredClone(all);
    applyFieldRules(all, { ...FULL, maxStopSequences: 2, maxOutputTokens: 10, reasoningLevels: ['low'] });
    applyFieldRules(all, { ...FULL, parameters: {}, maxStopSequences: 0, reasoningLevels: [] });
    expect(all).toEqual(allBefore);
  });
});

describe('nearestLevel', () => {
  it('finds the closest offered level along the order, lower on a tie, nothing for an unknown level', () => {
    expect(nearestLevel('high', ['none', 'max'])).toBe('max');
    expect(nearestLevel('medium', ['xhigh', 'minimal'])).toBe('minimal');
    expect(nearestLevel('xhigh', ['none', 'max'])).toBe('max');
    expect(nearestLevel('low', ['high', 'none'])).toBe('none');
    expect(nearestLevel('turbo', ['low'])).toBeUndefined();
    expect(nearestLevel('low', [])).toBeUndefined();
  });
});

describe('applyFieldRules: rules 3 and 7, refusals with the client path', () => {
  const parameter = (param: string) => ({
    status: 400,
    code: 'unsupported_parameter',
    param,
    messageId: 'compat.model_unsupported_parameter',
    params: { model: 'acme/m1', param },
  });
  const tool = { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } };

  it('refuses tools, tool_choice and parallel_tool_calls on a model without tools', () => {
    expect(refusal(mapped({ tools: [tool] }), BARE)).toEqual(parameter('tools'));
    expect(refusal(mapped({ tool_choice: 'auto' }), BARE)).toEqual(parameter('tool_choice'));
    expect(refusal(mapped({ parallel_tool_calls: true }), BARE)).toEqual(parameter('parallel_tool_calls'));
    expect(refusal(mapped({ tools: [tool] }, { tools: 'tools.0.functionDeclarations' }), BARE)).toEqual(
      parameter('tools.0.functionDeclarations'),
    );
  });

  it('refuses tool calls and tool results in the messages of a model without tools', () => {
    const call = { id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    const messages: TextInput['messages'] = [USER, { role: 'assistant', content: null, tool_calls: [call] }];
    expect(refusal(mapped({ messages }), BARE)).toEqual(parameter('messages.1.tool_calls'));
    const result: TextInput['messages'] = [USER, { role: 'tool', content: 'x', tool_call_id: 'c' }];
    expect(refusal(mapped({ messages: result }), BARE)).toEqual(parameter('messages.1.tool_call_id'));
    expect(applyFieldRules(mapped({ messages, tools: [tool] }), FULL).input.messages).toEqual(messages);
  });

  it('refuses a tool_choice form the model does not accept', () => {
    const autoNone: ModelLimits = { ...FULL, toolChoice: ['auto', 'none'] };
    expect(refusal(mapped({ tool_choice: { type: 'function', function: { name: 'f' } } }), autoNone)).toEqual(
      {
        status: 400,
        code: 'unsupported_parameter',
        param: 'tool_choice',
        messageId: 'compat.model_unsupported_value',
        params: { model: 'acme/m1', param: 'tool_choice', value: 'function' },
      },
    );
    expect(refusal(mapped({ tool_choice: 'required' }), autoNone)).toMatchObject({
      param: 'tool_choice',
      params: { value: 'required' },
    });
    expect(applyFieldRules(mapped({ tool_choice: 'none' }), autoNone).input.tool_choice).toBe('none');
    // No list: every form is accepted.
    expect(
      applyFieldRules(mapped({ tool_choice: { type: 'function', function: { name: 'f' } } }), FULL).input,
    ).toHaveProperty('tool_choice');
  });

  it('refuses response_format on a model listing none, and a type the model does not list', () => {
    expect(refusal(mapped({ response_format: { type: 'text' } }), BARE)).toEqual(
      parameter('response_format'),
    );
    const jsonObjectOnly: ModelLimits = { ...FULL, responseFormats: ['text', 'json_object'] };
    expect(
      refusal(
        mapped(
          { response_format: { type: 'json_schema', json_schema: {} } },
          { response_format: 'text.format' },
        ),
        jsonObjectOnly,
      ),
    ).toEqual({
      status: 400,
      code: 'unsupported_parameter',
      param: 'text.format',
      messageId: 'compat.model_unsupported_value',
      params: { model: 'acme/m1', param: 'text.format', value: 'json_schema' },
    });
    expect(
      applyFieldRules(mapped({ response_format: { type: 'json_object' } }), jsonObjectOnly).input,
    ).toHaveProperty('response_format');
  });

  it('refuses an image_url part on a model without images, at messages.<i>.content.<j>', () => {
    const messages: TextInput['messages'] = [
      { role: 'system', content: 'Describe.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
    ];
    expect(refusal(mapped({ messages }), { ...FULL, images: false })).toEqual({
      status: 400,
      code: 'unsupported_parameter',
      param: 'messages.1.content.1',
      messageId: 'compat.model_no_images',
      params: { model: 'acme/m1', param: 'messages.1.content.1' },
    });
    expect(applyFieldRules(mapped({ messages }), FULL).input.messages).toEqual(messages);
    // Text parts alone are fine on a model without images.
    const text: TextInput['messages'] = [{ role: 'user', content: [{ type: 'text', text: 'x' }] }];
    expect(applyFieldRules(mapped({ messages: text }), BARE).input.messages).toEqual(text);
  });

  it('refuses before it ignores anything: a refused request reports no partial outcome', () => {
    expect(refusal(mapped({ temperature: 1, tools: [tool] }), BARE)).toEqual(parameter('tools'));
  });
});

describe('applyFieldRules: image URLs the service does not take, and fields the upstream cannot take', () => {
  const image = (url: string): TextInput['messages'] => [
    { role: 'user', content: [{ type: 'text', text: 'look' }] },
    { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
  ];

  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['gopher://127.0.0.1:6379/_x', 'scheme'],
    ['http://169.254.169.254/latest/meta-data/', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['https://user@images.example/a.png', 'user_info'],
    ['https://images.example:8443/a.png', 'port'],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'data_url_type'],
  ])('refuses %s with 400 naming the part, before anything else', (url, reason) => {
    expect(refusal(mapped({ messages: image(url), temperature: 9 }), FULL)).toEqual({
      status: 400,
      code: 'invalid_request',
      param: 'messages.1.content.0',
      messageId: 'input.image_url_invalid',
      params: { field: 'messages.1.content.0', reason },
    });
  });

  it('keeps an https image, a data: image and a service:// file as they are', () => {
    for (const url of [
      'https://images.example/a.png',
      'data:image/png;base64,AAAA',
      'service://files/fil_x',
    ]) {
      expect(applyFieldRules(mapped({ messages: image(url) }), FULL).input.messages).toEqual(image(url));
    }
  });

  it("drops a field the model's upstream has no name for, and names it as ignored (client names)", () => {
    const tool = { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } };
    const model: ModelLimits = {
      ...FULL,
      parameters: { ...FULL.parameters, presence_penalty: { minimum: -2, maximum: 2 } },
      notSent: ['presence_penalty', 'parallel_tool_calls', 'min_p'],
    };
    const outcome = applyFieldRules(
      mapped(
        { presence_penalty: 1, parallel_tool_calls: false, temperature: 1, tools: [tool] },
        { presence_penalty: 'generationConfig.presencePenalty' },
      ),
      model,
    );
    expect(outcome.input).not.toHaveProperty('presence_penalty');
    expect(outcome.input).not.toHaveProperty('parallel_tool_calls');
    expect(outcome.input.temperature).toBe(1);
    expect(outcome.ignored).toEqual(['generationConfig.presencePenalty', 'parallel_tool_calls']);
  });
});
