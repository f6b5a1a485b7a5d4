import {
  toolInput,
  type ChatAdapter,
  type ChatAdapterConfig,
  type ChatContentPart,
  type ChatEvent,
  type ChatMessage,
  type ChatRequest,
  type ChatToolChoice,
} from './chat-adapter';
import { AnthropicMessagesDecoder } from './anthropic-messages.decoder';
import { thinkingBudget } from './reasoning-budget';
import {
  contentParts,
  contentText,
  inlineImage,
  isServiceUri,
  isSystem,
  missingImage,
  stopList,
  type ReadImages,
} from './request-parts';
import { streamUpstream, upstreamUrl } from './upstream-stream';

/** Anthropic requires max_tokens; this is sent when the request leaves it out. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
/** With extended thinking on, Anthropic takes `top_p` only from here to 1. */
const THINKING_MIN_TOP_P = 0.95;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Anthropic messages: `POST {baseUrl}/v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`, streamed. */
export class AnthropicMessagesAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** Anthropic takes `data:` images as base64 sources and `https` ones as URL sources; the caller's own files go as bytes. */
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
      url: upstreamUrl(this.config.baseUrl, '/v1/messages'),
      headers: { 'x-api-key': this.config.apiKey, 'anthropic-version': '2023-06-01' },
      body: anthropicMessagesBody(request, this.config.upstreamModel, images),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new AnthropicMessagesDecoder(),
    });
  }
}

/**
 * System and developer messages become the top-level `system`; tool results become `tool_result` blocks of a
 * user turn; turns of the same role are merged, since Anthropic wants user and assistant to alternate. An
 * assistant turn's `thinking_blocks` go first, unchanged (Anthropic checks their signatures). `reasoning_effort`
 * becomes `thinking` (see reasoning-budget.ts), under the rules extended thinking imposes: no `temperature` or
 * `top_k`, `top_p` at least 0.95, and no forced tool use (a forced tool keeps thinking off). Anthropic has no
 * name for min_p, top_a, the penalties, repetition_penalty or response_format: they are not sent (the field
 * rules list them in X-Service-Ignored-Params).
 */
export function anthropicMessagesBody(
  request: ChatRequest,
  model: string,
  images: ReadImages = new Map(),
): Record<string, unknown> {
  const system = request.messages.filter(isSystem).map((m) => contentText(m.content));
  const messages: AnthropicMessage[] = [];
  for (const message of request.messages) {
    const turn = anthropicTurn(message, images);
    if (!turn) continue;
    const last = messages.at(-1);
    if (last?.role === turn.role) last.content.push(...turn.content);
    else messages.push(turn);
  }
  const maxTokens = request.max_tokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  const body: Record<string, unknown> = { model, messages, max_tokens: maxTokens, stream: true };
  if (system.length) body.system = system.join('\n\n');
  if (request.tools?.length) {
    body.tools = request.tools.map(({ function: fn }) => ({
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      input_schema: fn.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const choice = anthropicToolChoice(request.tool_choice, request.parallel_tool_calls);
  if (choice) body.tool_choice = choice;
  const forced = choice?.type === 'any' || choice?.type === 'tool';
  const budget =
    request.reasoning_effort === undefined || forced
      ? undefined
      : thinkingBudget(request.reasoning_effort, maxTokens);
  if (request.reasoning_effort !== undefined) {
    body.thinking = budget === undefined ? { type: 'disabled' } : { type: 'enabled', budget_tokens: budget };
  }
  if (budget === undefined) {
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.top_k !== undefined) body.top_k = request.top_k;
    if (request.top_p !== undefined) body.top_p = request.top_p;
  } else if (request.top_p !== undefined) {
    body.top_p = Math.max(request.top_p, THINKING_MIN_TOP_P);
  }
  const stop = stopList(request.stop);
  if (stop.length) body.stop_sequences = stop;
  return body;
}

function anthropicTurn(message: ChatMessage, images: ReadImages): AnthropicMessage | undefined {
  switch (message.role) {
    case 'system':
    case 'developer':
      return undefined;
    case 'user':
      return {
        role: 'user',
        content: contentParts(message.content).map((part) => anthropicBlock(part, images)),
      };
    case 'assistant': {
      const content: Block[] = [...(message.thinking_blocks ?? [])];
      const text = contentText(message.content);
      if (text) content.push({ type: 'text', text });
      for (const call of message.tool_calls ?? []) {
        content.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: toolInput(call.function.arguments),
        });
      }
      return { role: 'assistant', content };
    }
    case 'tool': {
      const content =
        typeof message.content === 'string' || message.content === null
          ? (message.content ?? '')
          : message.content.map((part) => anthropicBlock(part, images));
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content }],
      };
    }
  }
}

function anthropicBlock(part: ChatContentPart, images: ReadImages): Block {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const { url } = part.image_url;
  if (url.startsWith('https:')) return { type: 'image', source: { type: 'url', url } };
  const image = inlineImage(url, images);
  if (!image) throw missingImage();
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.base64 } };
}

function anthropicToolChoice(
  choice: ChatToolChoice | undefined,
  parallel: boolean | undefined,
): Block | undefined {
  let block: Block | undefined;
  if (choice === undefined) block = parallel === false ? { type: 'auto' } : undefined;
  else if (typeof choice !== 'string') block = { type: 'tool', name: choice.function.name };
  else block = { type: choice === 'required' ? 'any' : choice };
  if (block && parallel === false && block.type !== 'none') block.disable_parallel_tool_use = true;
  return block;
}
