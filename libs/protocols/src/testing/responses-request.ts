import { thinkingToken, unsignedReasoningOf } from '../canonical/reasoning';
import type { TextContentPart, TextInput, TextMessage } from '../canonical/text-input';
import type { Json } from '../canonical/wire';

/**
 * Writes a canonical text input as a Responses request body: the inverse of `mapResponsesRequest`, used to check
 * that mapping loses nothing and handy for tests of callers. Every message becomes an `input` item (system and
 * developer ones included, so no `instructions`); an assistant message becomes its reasoning items (one per
 * thinking block, with the block as `encrypted_content`, then the rest of its `reasoning_content` as a summary,
 * as an answer of ours writes them), a message item (when it has content) and one `function_call` item per tool
 * call; a tool message a `function_call_output`.
 *
 * What Responses cannot express, and this helper therefore drops: message `name`, assistant content as a parts
 * list (written as one output_text part, read back as a string), images in assistant messages, a
 * `reasoning_content` that is not the thinking blocks' text followed by more, and the sampling fields and `stop`
 * that the Responses API lacks (top_k, min_p, top_a, the penalties, stop).
 */
export function toResponsesRequest(model: string, input: TextInput, stream = false): Json {
  const body: Json = { model, input: input.messages.flatMap(toItems) };
  if (stream) body.stream = true;
  if (input.max_tokens !== undefined) body.max_output_tokens = input.max_tokens;
  if (input.temperature !== undefined) body.temperature = input.temperature;
  if (input.top_p !== undefined) body.top_p = input.top_p;
  if (input.parallel_tool_calls !== undefined) body.parallel_tool_calls = input.parallel_tool_calls;
  if (input.tools) {
    body.tools = input.tools.map(({ function: fn }) => ({ type: 'function', ...fn }));
  }
  if (input.tool_choice !== undefined) {
    body.tool_choice =
      typeof input.tool_choice === 'string'
        ? input.tool_choice
        : { type: 'function', name: input.tool_choice.function.name };
  }
  if (input.response_format) {
    const { type, json_schema } = input.response_format;
    body.text = { format: type === 'json_schema' ? { type, ...json_schema } : { type } };
  }
  if (input.reasoning_effort !== undefined) body.reasoning = { effort: input.reasoning_effort };
  return body;
}

function toItems(message: TextMessage): Json[] {
  switch (message.role) {
    case 'assistant': {
      const items: Json[] = (message.thinking_blocks ?? []).map((block) => ({
        type: 'reasoning',
        summary:
          block.type === 'thinking' && block.thinking !== ''
            ? [{ type: 'summary_text', text: block.thinking }]
            : [],
        encrypted_content: thinkingToken(block),
      }));
      const unsigned = unsignedReasoningOf(message);
      if (unsigned !== '')
        items.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: unsigned }] });
      if (message.content !== null) {
        const text = typeof message.content === 'string' ? message.content : partsText(message.content);
        items.push({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        });
      }
      for (const call of message.tool_calls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        });
      }
      return items;
    }
    case 'tool':
      return [
        {
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output: toParts(message.content ?? ''),
        },
      ];
    default:
      return [{ type: 'message', role: message.role, content: toParts(message.content ?? '') }];
  }
}

function toParts(content: string | TextContentPart[]): string | Json[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : {
          type: 'input_image',
          image_url: part.image_url.url,
          ...(part.image_url.detail ? { detail: part.image_url.detail } : {}),
        },
  );
}

function partsText(parts: TextContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
