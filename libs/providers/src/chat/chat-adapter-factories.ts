import type { ModelBinding } from '@gen/contracts';
import {
  apiKeyOf,
  integerSetting,
  stringSetting,
  type AdapterEnvironment,
  type AdapterFactory,
} from '../registry/upstream-adapter';
import { AnthropicMessagesAdapter } from './anthropic-messages.adapter';
import type { ChatAdapter, ChatAdapterConfig } from './chat-adapter';
import { GeminiGenerateAdapter } from './gemini-generate.adapter';
import { OpenAiChatAdapter } from './openai-chat.adapter';

/** Longest wait for an upstream's response headers, and between two chunks of its stream, unless `timeoutMs` says. */
export const DEFAULT_CHAT_TIMEOUT_MS = 60_000;

function chatConfig(
  binding: ModelBinding,
  environment: AdapterEnvironment,
  baseUrl: string,
): ChatAdapterConfig {
  return {
    baseUrl: stringSetting(binding, 'baseUrl', baseUrl),
    apiKey: apiKeyOf(binding, environment),
    upstreamModel: binding.upstreamModel,
    timeoutMs: integerSetting(binding, 'timeoutMs', DEFAULT_CHAT_TIMEOUT_MS),
  };
}

const chatFactory =
  (build: (config: ChatAdapterConfig) => ChatAdapter, baseUrl: string): AdapterFactory =>
  (binding, environment) => {
    const adapter = build(chatConfig(binding, environment, baseUrl));
    return {
      chat: (request, signal, images) => adapter.chat(request, signal, images),
      readsImage: (url) => adapter.readsImage(url),
    };
  };

/** `openai-compatible`: OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter, Together. */
export const openAiCompatibleAdapter = chatFactory(
  (config) => new OpenAiChatAdapter(config),
  'https://api.openai.com/v1',
);

/** `anthropic`: the Messages API. */
export const anthropicAdapter = chatFactory(
  (config) => new AnthropicMessagesAdapter(config),
  'https://api.anthropic.com',
);

/** `gemini`: streamGenerateContent. */
export const geminiAdapter = chatFactory(
  (config) => new GeminiGenerateAdapter(config),
  'https://generativelanguage.googleapis.com',
);
