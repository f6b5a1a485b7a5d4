import { anthropicAdapter, geminiAdapter, openAiCompatibleAdapter } from '../chat/chat-adapter-factories';
import { openAiImagesAdapter } from '../media/openai-images.adapter';
import { replicateAdapter } from '../media/replicate.adapter';
import { offlineAdapter } from '../offline/offline.adapter';
import type { AdapterFactory } from './upstream-adapter';

/** Every adapter this service has, by the name a catalog binding gives (`provider.adapter`). */
export const DEFAULT_ADAPTERS: Readonly<Record<string, AdapterFactory>> = {
  offline: offlineAdapter,
  'openai-compatible': openAiCompatibleAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  'openai-images': openAiImagesAdapter,
  replicate: replicateAdapter,
};
