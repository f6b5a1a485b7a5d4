import type { FinishReason } from '@gen/contracts';
import { thinkingToken, unsignedReasoning } from '../canonical/reasoning';
import type { ChatResult, TextThinkingBlock, TextToolCall } from '../canonical/text-input';
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

/**
 * The part that carries a signed reasoning block: `thoughtSignature` alone, holding the block as a token (see
 * `thinkingToken`; base64, as Gemini's own signatures are). Gemini returns its signatures whether or not the
 * request asked for thoughts and tells clients to send every part of a model turn back as it came; a client doing
 * so gives the block back, which is what Anthropic needs on the next turn of a tool loop. It is a part of its
 * own, after the block's thought text when thoughts are shown, because a stream has written that text before the
 * signature arrives; a redacted block has only this part.
 */
export function signaturePart(block: TextThinkingBlock): Json {
  return { thoughtSignature: thinkingToken(block) };
}

/**
 * The reasoning parts of an answer, in order: per signed block its thought text (when thoughts are shown and it
 * has any) and its signature part, then the reasoning no signature closed as a thought part (when shown).
 */
export function reasoningParts(result: ChatResult, includeThoughts: boolean): Json[] {
  const parts: Json[] = [];
  for (const block of result.thinkingBlocks) {
    if (includeThoughts && block.type === 'thinking' && block.thinking !== '') {
      parts.push({ text: block.thinking, thought: true });
    }
    parts.push(signaturePart(block));
  }
  const unsigned = unsignedReasoning(result);
  if (includeThoughts && unsigned !== '') parts.push({ text: unsigned, thought: true });
  return parts;
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
 * The non-streamed GenerateContentResponse: one candidate (index 0) whose parts are the reasoning (see
 * `reasoningParts`: thought text only when asked for, signatures always), the text, then one `functionCall` per
 * tool call with its arguments parsed; `modelVersion` is the model id the client asked for, `responseId` the
 * result's id.
 */
export function writeGenerateContentResponse(
  result: ChatResult,
  options: GenerateContentWriteOptions = {},
): GenerateContentResponse {
  const parts: Json[] = reasoningParts(result, options.includeThoughts === true);
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
