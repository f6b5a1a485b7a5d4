import {
  toolInput,
  type ChatAdapter,
  type ChatAdapterConfig,
  type ChatEvent,
  type ChatMessage,
  type ChatRequest,
  type ChatToolChoice,
} from './canonical';
import { AnthropicMessagesDecoder } from './anthropic-messages.decoder';
import { streamUpstream, upstreamUrl } from './upstream-stream';

/** Anthropic requires max_tokens; this is sent when the request leaves it out. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Anthropic messages: `POST {baseUrl}/v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`, streamed. */
export class AnthropicMessagesAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** Errors, including a request that cannot be mapped, surface through the iteration, never synchronously. */
  async *chat(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    yield* streamUpstream({
      url: upstreamUrl(this.config.baseUrl, '/v1/messages'),
      headers: { 'x-api-key': this.config.apiKey, 'anthropic-version': '2023-06-01' },
      body: anthropicMessagesBody(request, this.config.upstreamModel),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new AnthropicMessagesDecoder(),
    });
  }
}

/**
 * System messages become the top-level `system`; tool results become `tool_result` blocks of a user turn; turns
 * of the same role are merged, since Anthropic wants user and assistant to alternate.
 */
export function anthropicMessagesBody(request: ChatRequest, model: string): Record<string, unknown> {
  const system = request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const messages: AnthropicMessage[] = [];
  for (const message of request.messages) {
    const turn = anthropicTurn(message);
    if (!turn) continue;
    const last = messages.at(-1);
    if (last?.role === turn.role) last.content.push(...turn.content);
    else messages.push(turn);
  }
  const body: Record<string, unknown> = {
    model,
    messages,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    stream: true,
  };
  if (system.length) body.system = system.join('\n\n');
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
  }
  if (request.toolChoice !== undefined) body.tool_choice = anthropicToolChoice(request.toolChoice);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop?.length) body.stop_sequences = request.stop;
  return body;
}

function anthropicTurn(message: ChatMessage): AnthropicMessage | undefined {
  switch (message.role) {
    case 'system':
      return undefined;
    case 'user':
      return { role: 'user', content: [{ type: 'text', text: message.content }] };
    case 'assistant': {
      const content: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        content.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }],
      };
  }
}

function anthropicToolChoice(choice: ChatToolChoice): Block {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return { type: choice === 'required' ? 'any' : choice };
}
