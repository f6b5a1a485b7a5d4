import { MESSAGE_OVERHEAD_TOKENS, PRIMING_TOKENS, textUsageBound } from './text-usage-bound';

describe('textUsageBound', () => {
  it('holds the bytes of the thinking blocks sent back, not those of reasoning_content (never sent upstream)', () => {
    const blocks = [{ type: 'thinking', thinking: 'Look it up.', signature: 'EqQBCkgIARAB' }];
    const plain = { role: 'assistant', content: 'Sunny.' };
    const bound = (message: Record<string, unknown>) =>
      textUsageBound({ messages: [message], max_tokens: 100 }).inputTokens!;
    expect(bound(plain)).toBe(PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + 'Sunny.'.length);
    expect(bound({ ...plain, thinking_blocks: blocks })).toBe(bound(plain) + JSON.stringify(blocks).length);
    expect(bound({ ...plain, reasoning_content: 'Look it up.' })).toBe(bound(plain));
  });
});
