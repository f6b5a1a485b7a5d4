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
import { GeminiGenerateDecoder } from './gemini-generate.decoder';
import { thinkingBudget } from './reasoning-budget';
import {
  contentParts,
  contentText,
  inlineImage,
  isSystem,
  missingImage,
  stopList,
  type ReadImages,
} from './request-parts';
import { streamUpstream, upstreamUrl } from './upstream-stream';

type Json = Record<string, unknown>;
interface GeminiContent {
  role: 'user' | 'model';
  parts: Json[];
}

/** Sampling fields Gemini's `generationConfig` takes, by canonical name. */
const GENERATION_FIELDS = [
  ['max_tokens', 'maxOutputTokens'],
  ['temperature', 'temperature'],
  ['top_p', 'topP'],
  ['top_k', 'topK'],
  ['presence_penalty', 'presencePenalty'],
  ['frequency_penalty', 'frequencyPenalty'],
] as const;

/** Gemini: `POST {baseUrl}/v1beta/models/{model}:streamGenerateContent?alt=sse`, `x-goog-api-key`. */
export class GeminiGenerateAdapter implements ChatAdapter {
  constructor(private readonly config: ChatAdapterConfig) {}

  /** Gemini takes image bytes (`inlineData`; `fileData` wants Google's own file URIs): every URL is read first. */
  readsImage(): boolean {
    return true;
  }

  /** Errors, including a request that cannot be mapped, surface through the iteration, never synchronously. */
  async *chat(
    request: ChatRequest,
    signal?: AbortSignal,
    images: ReadImages = new Map(),
  ): AsyncIterable<ChatEvent> {
    const model = encodeURIComponent(this.config.upstreamModel);
    yield* streamUpstream({
      url: upstreamUrl(this.config.baseUrl, `/v1beta/models/${model}:streamGenerateContent?alt=sse`),
      headers: { 'x-goog-api-key': this.config.apiKey },
      body: geminiGenerateBody(request, images),
      timeoutMs: this.config.timeoutMs,
      signal,
      decoder: new GeminiGenerateDecoder(),
    });
  }
}

/**
 * System and developer messages become `systemInstruction`; the assistant is the `model` role; a tool result is a
 * `functionResponse` part named after the call it answers, its text under `output` (Gemini's key for a function's
 * output); turns of the same role are merged. Images go as
 * `inlineData`. `response_format` becomes `responseMimeType` (`application/json` for json_object and
 * json_schema) with `responseJsonSchema`; `reasoning_effort` becomes `thinkingConfig` (`none`: a budget of 0;
 * a level: a budget from reasoning-budget.ts, with the thoughts included so that the answer carries them).
 * Gemini has no name for min_p, top_a, repetition_penalty or parallel_tool_calls: they are not sent (the field
 * rules list them in X-Service-Ignored-Params). Thinking blocks of another upstream are not sent.
 */
export function geminiGenerateBody(request: ChatRequest, images: ReadImages = new Map()): Json {
  const system = request.messages.filter(isSystem).map((m) => ({ text: contentText(m.content) }));
  const callNames = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const message of request.messages) {
    const turn = geminiTurn(message, callNames, images);
    if (!turn) continue;
    const last = contents.at(-1);
    if (last?.role === turn.role) last.parts.push(...turn.parts);
    else contents.push(turn);
  }
  const body: Json = { contents };
  if (system.length) body.systemInstruction = { parts: system };
  if (request.tools?.length) {
    const functionDeclarations = request.tools.map(({ function: fn }) => ({
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      parametersJsonSchema: fn.parameters ?? { type: 'object', properties: {} },
    }));
    body.tools = [{ functionDeclarations }];
  }
  if (request.tool_choice !== undefined)
    body.toolConfig = { functionCallingConfig: callingConfig(request.tool_choice) };
  const generationConfig: Json = {};
  for (const [canonical, name] of GENERATION_FIELDS) {
    if (request[canonical] !== undefined) generationConfig[name] = request[canonical];
  }
  const stop = stopList(request.stop);
  if (stop.length) generationConfig.stopSequences = stop;
  const format = request.response_format;
  if (format) {
    generationConfig.responseMimeType = format.type === 'text' ? 'text/plain' : 'application/json';
    const schema = format.type === 'json_schema' ? format.json_schema?.['schema'] : undefined;
    if (schema !== undefined) generationConfig.responseJsonSchema = schema;
  }
  if (request.reasoning_effort !== undefined) generationConfig.thinkingConfig = thinkingConfig(request);
  if (Object.keys(generationConfig).length) body.generationConfig = generationConfig;
  return body;
}

/**
 * Google's own budgets of the levels (its OpenAI compatibility layer), for a request without `max_tokens`: a task's
 * input always has one (the schema's default), so only a caller of the adapter alone meets these.
 */
const GOOGLE_LEVEL_BUDGETS: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24_576,
  xhigh: 24_576,
  max: 24_576,
};

function thinkingConfig(request: ChatRequest): Json {
  const level = request.reasoning_effort!;
  const budget =
    level === 'none'
      ? undefined
      : request.max_tokens === undefined
        ? GOOGLE_LEVEL_BUDGETS[level]
        : thinkingBudget(level, request.max_tokens);
  return budget === undefined ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

function geminiTurn(
  message: ChatMessage,
  callNames: Map<string, string>,
  images: ReadImages,
): GeminiContent | undefined {
  switch (message.role) {
    case 'system':
    case 'developer':
      return undefined;
    case 'user':
      return { role: 'user', parts: contentParts(message.content).map((part) => geminiPart(part, images)) };
    case 'assistant': {
      const text = contentText(message.content);
      const parts: Json[] = text ? [{ text }] : [];
      for (const call of message.tool_calls ?? []) {
        callNames.set(call.id, call.function.name);
        parts.push({
          functionCall: { id: call.id, name: call.function.name, args: toolInput(call.function.arguments) },
        });
      }
      return { role: 'model', parts };
    }
    case 'tool': {
      const id = message.tool_call_id ?? '';
      const name = message.name ?? callNames.get(id) ?? id;
      const response = { id, name, response: { output: contentText(message.content) } };
      return { role: 'user', parts: [{ functionResponse: response }] };
    }
  }
}

function geminiPart(part: ChatContentPart, images: ReadImages): Json {
  if (part.type === 'text') return { text: part.text };
  const image = inlineImage(part.image_url.url, images);
  if (!image) throw missingImage();
  return { inlineData: { mimeType: image.mediaType, data: image.base64 } };
}

function callingConfig(choice: ChatToolChoice): Json {
  if (typeof choice !== 'string') return { mode: 'ANY', allowedFunctionNames: [choice.function.name] };
  return { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() };
}
