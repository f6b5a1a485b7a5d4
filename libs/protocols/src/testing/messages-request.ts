import { unsignedReasoningOf } from '../canonical/reasoning';
import type { TextContentPart, TextInput, TextMessage } from '../canonical/text-input';
import type { Json } from '../canonical/wire';

/**
 * Writes a canonical text input as a Messages request body: the inverse of `mapMessagesRequest`, used to check
 * that mapping loses nothing. A leading system message becomes `system`; each other message one Messages turn
 * (a tool message a user turn holding one tool_result block; an assistant message its reasoning blocks, text
 * block and tool_use blocks, the arguments parsed back to the `input` object). The reasoning blocks are the
 * message's `thinking_blocks`, then the rest of its `reasoning_content` as a thinking block with an empty
 * signature, as an answer of ours writes them. `max_tokens` defaults to 1024 because the protocol requires it.
 *
 * What Messages cannot express, and this helper therefore drops or changes: system or developer messages after
 * the first message, message `name`, an assistant parts list (read back as one string) or empty text beside
 * tool calls (read back as null), tool-call arguments that are not a JSON object (or not in canonical JSON
 * spacing), a `reasoning_content` that is not the thinking blocks' text followed by more (it is read back as
 * the text of the blocks written), `parallel_tool_calls` without `tool_choice`, and the fields the mapping table
 * gives no Messages name: min_p, top_a, the penalties, reasoning_effort and response_format.
 */
export function toMessagesRequest(model: string, input: TextInput, stream = false): Json {
  const [first, ...rest] = input.messages;
  const body: Json = { model, max_tokens: input.max_tokens ?? 1024 };
  if (first?.role === 'system') {
    body.system = typeof first.content === 'string' ? first.content : toBlocks(first.content ?? []);
    body.messages = rest.map(toTurn);
  } else {
    body.messages = input.messages.map(toTurn);
  }
  if (stream) body.stream = true;
  if (input.temperature !== undefined) body.temperature = input.temperature;
  if (input.top_p !== undefined) body.top_p = input.top_p;
  if (input.top_k !== undefined) body.top_k = input.top_k;
  if (input.stop !== undefined) body.stop_sequences = input.stop;
  if (input.tools) {
    body.tools = input.tools.map(({ function: fn }) => ({
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      input_schema: fn.parameters ?? { type: 'object' },
    }));
  }
  if (input.tool_choice !== undefined) {
    const choice = input.tool_choice;
    const mapped: Json =
      typeof choice === 'string'
        ? { type: choice === 'required' ? 'any' : choice }
        : { type: 'tool', name: choice.function.name };
    if (input.parallel_tool_calls !== undefined)
      mapped.disable_parallel_tool_use = !input.parallel_tool_calls;
    body.tool_choice = mapped;
  }
  return body;
}

function toTurn(message: TextMessage): Json {
  switch (message.role) {
    case 'assistant': {
      const text = typeof message.content === 'string' ? message.content : partsText(message.content ?? []);
      const reasoning: Json[] = (message.thinking_blocks ?? []).map((block) => ({ ...block }));
      const unsigned = unsignedReasoningOf(message);
      if (unsigned !== '') reasoning.push({ type: 'thinking', thinking: unsigned, signature: '' });
      if (!message.tool_calls?.length && reasoning.length === 0) return { role: 'assistant', content: text };
      const blocks: Json[] = [...reasoning, ...(text === '' ? [] : [{ type: 'text', text }])];
      for (const call of message.tool_calls ?? []) {
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: JSON.parse(call.function.arguments) as unknown,
        });
      }
      return { role: 'assistant', content: blocks };
    }
    case 'tool': {
      const content = message.content ?? '';
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.tool_call_id,
            content: typeof content === 'string' ? content : toBlocks(content),
          },
        ],
      };
    }
    default: {
      const content = message.content ?? '';
      return { role: 'user', content: typeof content === 'string' ? content : toBlocks(content) };
    }
  }
}

function toBlocks(parts: TextContentPart[]): Json[] {
  return parts.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url.url);
    const source = match
      ? { type: 'base64', media_type: match[1], data: match[2] }
      : { type: 'url', url: part.image_url.url };
    return { type: 'image', source };
  });
}

function partsText(parts: TextContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
