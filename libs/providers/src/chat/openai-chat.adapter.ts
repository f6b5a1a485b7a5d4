import type {
  ChatAdapter,
  ChatAdapterConfig,
  ChatEvent,
  ChatMessage,
  ChatRequest,
  ChatToolChoice,
} from './canonical';
import { OpenAiChatDecoder } from './openai-chat.decoder';
import { streamUpstream, upstreamUrl } from './upstream-stream';

/**
 * OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter, Together):
 * `POST {baseUrl}/chat/completions`, `Authorization: Bearer`, always streamed with usage in the last chunk.
 */
export class OpenAiChatAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** Errors, including a request that cannot be mapped, surface through the iteration, never synchronously. */
  async *chat(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    yield* streamUpstream({
      url: upstreamUrl(this.config.baseUrl, '/chat/completions'),
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      body: openAiChatBody(request, this.config.upstreamModel),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new OpenAiChatDecoder(),
    });
  }
}

export function openAiChatBody(request: ChatRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map(openAiMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.toolChoice !== undefined) body.tool_choice = openAiToolChoice(request.toolChoice);
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop?.length) body.stop = request.stop;
  return body;
}

function openAiMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const out: Record<string, unknown> = { role: 'assistant', content: message.content ?? null };
      if (message.toolCalls?.length) {
        out.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
      }
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function openAiToolChoice(choice: ChatToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}
