import type { FinishReason } from '@gen/contracts';
import type { ChatResult, TextToolCall } from '../canonical/text-input';
import type { Json } from './fields';

/** How a response is written: thought parts appear only when the request asked (`thinkingConfig.includeThoughts`). */
export interface GenerateContentWriteOptions {
  includeThoughts?: boolean;
}

/** `usageMetadata` of a GenerateContentResponse. */
export interface GenerateContentUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** A GenerateContentResponse: one whole answer, or one chunk of a stream. */
export interface GenerateContentResponse {
  candidates: {
    content: { parts: Json[]; role: 'model' };
    finishReason?: string;
    index: 0;
  }[];
  usageMetadata?: GenerateContentUsage;
  modelVersion: string;
  responseId: string;
}

/** A function call's arguments always reach a Google client as an object: anything else becomes `{}`. */
function argsOf(call: TextToolCall): Json {
  try {
    const args: unknown = JSON.parse(call.function.arguments);
    return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Json) : {};
  } catch {
    return {};
  }
}

/** A tool call as a `functionCall` part, carrying its id so that the client can echo it in its functionResponse. */
export function functionCallPart(call: TextToolCall): Json {
  const functionCall: Json = { name: call.function.name, args: argsOf(call) };
  if (call.id) functionCall.id = call.id;
  return { functionCall };
}

/** Tool calls end a Gemini turn with STOP (it has no tool-call reason); a content filter is SAFETY. */
export function finishReasonOf(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
  }
}

/**
 * Canonical usage as `usageMetadata`: `candidatesTokenCount` excludes the thoughts (Gemini counts them apart, in
 * `thoughtsTokenCount`), the prompt count includes the cached part; zero optional counts are left out, as Gemini
 * leaves them out.
 */
export function usageMetadataOf(usage: ChatResult['usage']): GenerateContentUsage {
  const metadata: GenerateContentUsage = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens - usage.reasoningTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if (usage.reasoningTokens > 0) metadata.thoughtsTokenCount = usage.reasoningTokens;
  if (usage.cachedInputTokens > 0) metadata.cachedContentTokenCount = usage.cachedInputTokens;
  return metadata;
}

/**
 * The non-streamed GenerateContentResponse: one candidate (index 0) whose parts are the thought text (when asked
 * for), the text, then one `functionCall` per tool call with its arguments parsed; `modelVersion` is the model id
 * the client asked for, `responseId` the result's id.
 */
export function writeGenerateContentResponse(
  result: ChatResult,
  options: GenerateContentWriteOptions = {},
): GenerateContentResponse {
  const parts: Json[] = [];
  if (options.includeThoughts && result.reasoning) parts.push({ text: result.reasoning, thought: true });
  if (result.text) parts.push({ text: result.text });
  parts.push(...result.toolCalls.map(functionCallPart));
  return {
    candidates: [
      { content: { parts, role: 'model' }, finishReason: finishReasonOf(result.finishReason), index: 0 },
    ],
    usageMetadata: usageMetadataOf(result.usage),
    modelVersion: result.model,
    responseId: result.id,
  };
}
