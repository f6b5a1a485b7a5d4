import type { ChatEvent } from '@gen/contracts';
import fc from 'fast-check';
import {
  TurnReasoning,
  thinkingBlockAt,
  thinkingBlockOfToken,
  thinkingToken,
  unsignedReasoning,
  unsignedReasoningOf,
} from './reasoning';
import { aggregate, ProtocolError, type TextThinkingBlock } from './text-input';

const BASE = { id: 'req_1', model: 'm', created: 0 };

const block: fc.Arbitrary<TextThinkingBlock> = fc.oneof(
  fc.record({
    type: fc.constant('thinking' as const),
    thinking: fc.string({ unit: 'binary' }),
    signature: fc.string({ minLength: 1 }),
  }),
  fc.record({ type: fc.constant('redacted_thinking' as const), data: fc.string({ minLength: 1 }) }),
);

const paramOf = (run: () => unknown): string | null => {
  try {
    run();
  } catch (error) {
    if (error instanceof ProtocolError) return `${error.code} ${error.param}`;
    throw error;
  }
  throw new Error('accepted');
};

describe('thinking tokens', () => {
  it('give back the block, from either base64 alphabet, with or without padding', () => {
    fc.assert(
      fc.property(block, (value) => {
        const token = thinkingToken(value);
        expect(token).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
        expect(thinkingBlockOfToken(token, 'p')).toEqual(value);
        const urlSafe = token.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
        expect(thinkingBlockOfToken(urlSafe, 'p')).toEqual(value);
      }),
    );
  });

  it('are not recognized in values of others, which the mappers ignore', () => {
    for (const foreign of [
      'skip_thought_signature_validator',
      'context_engineering_is_the_way_to_go',
      'gAAAAABoX2fzk4M8yJ3XQ==',
      'CiQB0e2Kb0Yz',
      '',
    ]) {
      expect(thinkingBlockOfToken(foreign, 'p')).toBeUndefined();
    }
  });

  it('of ours that do not decode to a block are invalid at the field that carried them', () => {
    const token = (text: string) => Buffer.from(`thinking-block/1\n${text}`).toString('base64');
    expect(paramOf(() => thinkingBlockOfToken(token('{"type":'), 'input.1.encrypted_content'))).toBe(
      'invalid_request input.1.encrypted_content',
    );
    expect(paramOf(() => thinkingBlockOfToken(token('{"type":"thinking","thinking":"x"}'), 'sig'))).toBe(
      'invalid_request sig',
    );
    expect(
      paramOf(() => thinkingBlockOfToken(token('{"type":"redacted_thinking","data":"d","x":1}'), 'sig')),
    ).toBe('invalid_request sig');
  });
});

describe('thinkingBlockAt', () => {
  it('drops or refuses other keys as asked', () => {
    const value = { type: 'thinking', thinking: 't', signature: 's', cache_control: { type: 'ephemeral' } };
    expect(thinkingBlockAt(value, 'b', 'drop')).toEqual({ type: 'thinking', thinking: 't', signature: 's' });
    expect(paramOf(() => thinkingBlockAt(value, 'b', 'refuse'))).toBe(
      'unsupported_parameter b.cache_control',
    );
  });
});

describe('unsigned reasoning', () => {
  it('is the text after the last signature, whatever the order of the events', () => {
    const events: ChatEvent[] = [
      { type: 'reasoning', delta: 'a' },
      { type: 'reasoning_signature', signature: 's1' },
      { type: 'redacted_reasoning', data: 'd' },
      { type: 'reasoning', delta: 'b' },
      { type: 'text', delta: 'x' },
      { type: 'reasoning', delta: 'c' },
      { type: 'reasoning_signature', signature: 's2' },
      { type: 'reasoning', delta: 'tail' },
    ];
    const result = aggregate(events, BASE);
    expect(result.thinkingBlocks).toEqual([
      { type: 'thinking', thinking: 'a', signature: 's1' },
      { type: 'redacted_thinking', data: 'd' },
      { type: 'thinking', thinking: 'bc', signature: 's2' },
    ]);
    expect(unsignedReasoning(result)).toBe('tail');
    expect(unsignedReasoning(aggregate([{ type: 'reasoning', delta: 'all' }], BASE))).toBe('all');
  });

  it('of a message is its reasoning_content beyond its blocks’ text, or all of it when it does not start so', () => {
    const blocks: TextThinkingBlock[] = [{ type: 'thinking', thinking: 'ab', signature: 's' }];
    const message = { role: 'assistant' as const, content: null, thinking_blocks: blocks };
    expect(unsignedReasoningOf({ ...message, reasoning_content: 'abcd' })).toBe('cd');
    expect(unsignedReasoningOf({ ...message, reasoning_content: 'zz' })).toBe('zz');
    expect(unsignedReasoningOf(message)).toBe('');
  });

  it('TurnReasoning sets reasoning_content only when there is text, thinking_blocks only when there are blocks', () => {
    const turn = new TurnReasoning();
    turn.text('');
    turn.block({ type: 'redacted_thinking', data: 'd' });
    expect(turn.applyTo({ role: 'assistant', content: 'x' })).toEqual({
      role: 'assistant',
      content: 'x',
      thinking_blocks: [{ type: 'redacted_thinking', data: 'd' }],
    });
    const text = new TurnReasoning();
    text.text('a');
    text.text('b');
    expect(text.applyTo({ role: 'assistant', content: null, reasoning_content: 'z' })).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'zab',
    });
  });
});
