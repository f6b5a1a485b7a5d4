import type { ChatEvent, ChatRequest } from '@gen/contracts';
import type { ReadImages } from './request-parts';
import { UpstreamError } from './upstream-error';

// The canonical chat types are a contract (`@gen/contracts`): the compatibility layer and the adapters share them.
export type {
  ChatContentPart,
  ChatEvent,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatUsage,
  FinishReason,
} from '@gen/contracts';

/** What an adapter is built from: the catalog entry plus credentials from the environment, never the request. */
export interface ChatAdapterConfig {
  baseUrl: string;
  apiKey: string;
  upstreamModel: string;
  /** Longest wait for the response headers and between two chunks of the body. */
  timeoutMs: number;
}

export interface ChatAdapter {
  /** Whether an image URL must be sent as bytes (read before the call, into `images`): the upstream cannot take it. */
  readsImage(url: string): boolean;
  chat(request: ChatRequest, signal?: AbortSignal, images?: ReadImages): AsyncIterable<ChatEvent>;
}

/** A non-negative integer from an upstream's count, 0 when absent or not a number. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** A tool call's arguments as the object Anthropic wants; arguments that are not a JSON object cannot be sent. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args || '{}');
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UpstreamError(
    'failed',
    'a tool call in the conversation has arguments that are not a JSON object',
  );
}
