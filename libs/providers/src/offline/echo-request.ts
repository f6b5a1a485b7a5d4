import type { ChatMessage, ChatRequest } from '@gen/contracts';
import { contentText as textOf } from '../chat/request-parts';

const contentText = (content: unknown): string => textOf(content as ChatMessage['content']);

type Json = Record<string, unknown>;

/**
 * The echo model's own view of a request: what its tokenizer counts and its answer is built from (text of each
 * message, tool calls, tools). Kept as it was when it was every adapter's request, so that the offline model's
 * token counts, and so its prices, do not change.
 */
export type EchoMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content?: string | null; toolCalls?: EchoToolCall[] }
  | { role: 'tool'; toolCallId: string; name?: string; content: string };

export interface EchoToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type EchoToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface EchoRequest {
  messages: EchoMessage[];
  tools?: { name: string; description?: string; parameters: Json }[];
  toolChoice?: EchoToolChoice;
  maxTokens?: number;
  stop?: string[];
  reasoningEffort?: string;
}

/** The echo view of a canonical request. `developer` messages are system messages. */
export function echoRequestOf(canonical: ChatRequest): EchoRequest {
  const input = canonical as unknown as Readonly<Json>;
  const messages = (input['messages'] as Json[]).map(echoMessageOf);
  const request: EchoRequest = { messages };
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
        ? (choice as Exclude<EchoToolChoice, { name: string }>)
        : { name: ((choice as Json)['function'] as { name: string }).name };
  }
  if (typeof input['max_tokens'] === 'number') request.maxTokens = input['max_tokens'];
  const stop = input['stop'];
  if (typeof stop === 'string') request.stop = [stop];
  else if (Array.isArray(stop) && stop.length) request.stop = stop as string[];
  if (typeof input['reasoning_effort'] === 'string') request.reasoningEffort = input['reasoning_effort'];
  return request;
}

function echoMessageOf(message: Json): EchoMessage {
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
