import {
  toolInput,
  type ChatAdapter,
  type ChatAdapterConfig,
  type ChatEvent,
  type ChatMessage,
  type ChatRequest,
  type ChatToolChoice,
} from './canonical';
import { GeminiGenerateDecoder } from './gemini-generate.decoder';
import { streamUpstream, upstreamUrl } from './upstream-stream';

type Json = Record<string, unknown>;
interface GeminiContent {
  role: 'user' | 'model';
  parts: Json[];
}

/** Gemini: `POST {baseUrl}/v1beta/models/{model}:streamGenerateContent?alt=sse`, `x-goog-api-key`. */
export class GeminiGenerateAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** Errors, including a request that cannot be mapped, surface through the iteration, never synchronously. */
  async *chat(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatEvent> {
    const model = encodeURIComponent(this.config.upstreamModel);
    yield* streamUpstream({
      url: upstreamUrl(this.config.baseUrl, `/v1beta/models/${model}:streamGenerateContent?alt=sse`),
      headers: { 'x-goog-api-key': this.config.apiKey },
      body: geminiGenerateBody(request),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new GeminiGenerateDecoder(),
    });
  }
}

/**
 * System messages become `systemInstruction`; the assistant is the `model` role; a tool result is a
 * `functionResponse` part named after the call it answers; turns of the same role are merged.
 */
export function geminiGenerateBody(request: ChatRequest): Json {
  const system = request.messages.flatMap((m) => (m.role === 'system' ? [{ text: m.content }] : []));
  const callNames = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const message of request.messages) {
    const turn = geminiTurn(message, callNames);
    if (!turn) continue;
    const last = contents.at(-1);
    if (last?.role === turn.role) last.parts.push(...turn.parts);
    else contents.push(turn);
  }
  const body: Json = { contents };
  if (system.length) body.systemInstruction = { parts: system };
  if (request.tools?.length) {
    const functionDeclarations = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: tool.parameters,
    }));
    body.tools = [{ functionDeclarations }];
  }
  if (request.toolChoice !== undefined)
    body.toolConfig = { functionCallingConfig: callingConfig(request.toolChoice) };
  const generationConfig: Json = {};
  if (request.maxTokens !== undefined) generationConfig.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
  if (request.topP !== undefined) generationConfig.topP = request.topP;
  if (request.stop?.length) generationConfig.stopSequences = request.stop;
  if (Object.keys(generationConfig).length) body.generationConfig = generationConfig;
  return body;
}

function geminiTurn(message: ChatMessage, callNames: Map<string, string>): GeminiContent | undefined {
  switch (message.role) {
    case 'system':
      return undefined;
    case 'user':
      return { role: 'user', parts: [{ text: message.content }] };
    case 'assistant': {
      const parts: Json[] = message.content ? [{ text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        callNames.set(call.id, call.name);
        parts.push({ functionCall: { id: call.id, name: call.name, args: toolInput(call.arguments) } });
      }
      return { role: 'model', parts };
    }
    case 'tool': {
      const name = message.name ?? callNames.get(message.toolCallId) ?? message.toolCallId;
      const response = { id: message.toolCallId, name, response: { content: message.content } };
      return { role: 'user', parts: [{ functionResponse: response }] };
    }
  }
}

function callingConfig(choice: ChatToolChoice): Json {
  if (typeof choice !== 'string') return { mode: 'ANY', allowedFunctionNames: [choice.name] };
  return { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() };
}
