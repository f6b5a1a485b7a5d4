import { CHAT_SAMPLING_FIELDS } from '@gen/contracts';
import type {
  ChatAdapter,
  ChatAdapterConfig,
  ChatContentPart,
  ChatEvent,
  ChatMessage,
  ChatRequest,
} from './chat-adapter';
import { OpenAiChatDecoder } from './openai-chat.decoder';
import {
  contentParts,
  inlineImage,
  isServiceUri,
  missingImage,
  stopList,
  type ReadImages,
} from './request-parts';
import { streamUpstream, upstreamUrl } from './upstream-stream';

type Json = Record<string, unknown>;

/** The canonical fields an OpenAI-compatible body carries under the same name (vLLM, OpenRouter take them all). */
const SAME_NAME = [
  'max_tokens',
  ...CHAT_SAMPLING_FIELDS,
  'reasoning_effort',
  'parallel_tool_calls',
  'response_format',
] as const;

/**
 * OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter, Together):
 * `POST {baseUrl}/chat/completions`, `Authorization: Bearer`, always streamed with usage in the last chunk.
 */
export class OpenAiChatAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** An OpenAI-compatible server takes `data:` and `https` image URLs; the caller's own files go as bytes. */
  readsImage(url: string): boolean {
    return isServiceUri(url);
  }

  /** Errors, including a request that cannot be mapped, surface through the iteration, never synchronously. */
  async *chat(
    request: ChatRequest,
    signal?: AbortSignal,
    images: ReadImages = new Map(),
  ): AsyncIterable<ChatEvent> {
    yield* streamUpstream({
      url: upstreamUrl(this.config.baseUrl, '/chat/completions'),
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      body: openAiChatBody(request, this.config.upstreamModel, images),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new OpenAiChatDecoder(),
    });
  }
}

/**
 * The canonical request is chat completions' own shape: every field goes under its name. `developer` messages
 * are sent as `system` (OpenAI-compatible servers other than OpenAI know only that); thinking blocks and
 * reasoning text of earlier answers are not sent (the format has no place for them).
 */
export function openAiChatBody(request: ChatRequest, model: string, images: ReadImages = new Map()): Json {
  const body: Json = {
    model,
    messages: request.messages.map((message) => openAiMessage(message, images)),
    stream: true,
    stream_options: { include_usage: true },
  };
  for (const field of SAME_NAME) if (request[field] !== undefined) body[field] = request[field];
  const stop = stopList(request.stop);
  if (stop.length) body.stop = stop;
  if (request.tools?.length) body.tools = request.tools;
  if (request.tool_choice !== undefined) body.tool_choice = request.tool_choice;
  return body;
}

function openAiMessage(message: ChatMessage, images: ReadImages): Json {
  const role = message.role === 'developer' ? 'system' : message.role;
  const out: Json = { role };
  if (message.role === 'tool') out.tool_call_id = message.tool_call_id ?? '';
  if (message.name !== undefined && message.role !== 'tool') out.name = message.name;
  out.content =
    typeof message.content === 'string' || message.content === null
      ? message.content
      : contentParts(message.content).map((part) => openAiPart(part, images));
  if (message.role === 'assistant' && message.tool_calls?.length) out.tool_calls = message.tool_calls;
  return out;
}

function openAiPart(part: ChatContentPart, images: ReadImages): Json {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const { url, detail } = part.image_url;
  let sent = url;
  if (isServiceUri(url)) {
    const image = inlineImage(url, images);
    if (!image) throw missingImage();
    sent = `data:${image.mediaType};base64,${image.base64}`;
  }
  return { type: 'image_url', image_url: detail === undefined ? { url: sent } : { url: sent, detail } };
}
