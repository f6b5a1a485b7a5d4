import type { ChatMessage, ChatRequest, ChatToolChoice } from '@gen/contracts';

type Json = Record<string, unknown>;

/** The text of a message's content: a string, or its text parts joined (image parts carry no text). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => (part as Json)?.['type'] === 'text')
    .map((part) => part.text)
    .join('');
}

/**
 * The adapters' canonical chat request from the input of a text task (validated against the model's
 * `inputSchema`, defaults applied: see the catalog's chatInputSchema). `developer` messages are system messages.
 */
export function chatRequestOf(input: Readonly<Json>, stream: boolean): ChatRequest {
  const messages = (input['messages'] as Json[]).map(chatMessageOf);
  const request: ChatRequest = { messages, stream };
  const tools = input['tools'] as
    { function: { name: string; description?: string; parameters?: Json } }[] | undefined;
  if (tools?.length) {
    request.tools = tools.map(({ function: f }) => ({
      name: f.name,
      ...(f.description !== undefined ? { description: f.description } : {}),
      parameters: f.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const choice = input['tool_choice'];
  if (choice !== undefined) {
    request.toolChoice =
      typeof choice === 'string'
        ? (choice as Exclude<ChatToolChoice, { name: string }>)
        : { name: ((choice as Json)['function'] as { name: string }).name };
  }
  if (typeof input['max_tokens'] === 'number') request.maxTokens = input['max_tokens'];
  if (typeof input['temperature'] === 'number') request.temperature = input['temperature'];
  if (typeof input['top_p'] === 'number') request.topP = input['top_p'];
  const stop = input['stop'];
  if (typeof stop === 'string') request.stop = [stop];
  else if (Array.isArray(stop) && stop.length) request.stop = stop as string[];
  if (typeof input['reasoning_effort'] === 'string') request.reasoningEffort = input['reasoning_effort'];
  return request;
}

function chatMessageOf(message: Json): ChatMessage {
  const text = contentText(message['content']);
  switch (message['role']) {
    case 'system':
    case 'developer':
      return { role: 'system', content: text };
    case 'assistant': {
      const calls = message['tool_calls'] as
        { id: string; function: { name: string; arguments: string } }[] | undefined;
      return {
        role: 'assistant',
        content: message['content'] === null ? null : text,
        ...(calls?.length
          ? {
              toolCalls: calls.map((c) => ({
                id: c.id,
                name: c.function.name,
                arguments: c.function.arguments,
              })),
            }
          : {}),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        toolCallId: String(message['tool_call_id'] ?? ''),
        ...(typeof message['name'] === 'string' ? { name: message['name'] } : {}),
        content: text,
      };
    default:
      return { role: 'user', content: text };
  }
}
