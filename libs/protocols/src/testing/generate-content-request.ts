import { thinkingToken, unsignedReasoningOf } from '../canonical/reasoning';
import type { TextContentPart, TextInput, TextMessage } from '../canonical/text-input';
import type { Json } from '../generate-content/fields';

/**
 * A canonical input written as a generate-content request body (the inverse of `mapGenerateContentRequest`, for
 * tests and tools). An assistant message's reasoning is written as an answer of ours with thoughts shown writes
 * it: per thinking block its thought text and its `thoughtSignature` part, then the rest of `reasoning_content`
 * as a thought part. What Gemini cannot say is dropped: `min_p`, `top_a`, `repetition_penalty`,
 * `parallel_tool_calls`, message `name`, image `detail`, the `json_schema` name, a `reasoning_content` that is
 * not the thinking blocks' text followed by more; system messages all go to
 * `systemInstruction`, a `stop` string becomes a one-item list, and consecutive messages that land in one turn
 * (tool results and the user message after them) share it.
 */
export function toGenerateContentRequest(input: TextInput): Json {
  const system = input.messages.filter((m) => m.role === 'system' || m.role === 'developer');
  const names = new Map<string, string>();
  const contents: { role: 'user' | 'model'; parts: Json[] }[] = [];
  for (const message of input.messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = partsOf(message, names);
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  const body: Json = { contents };
  if (system.length) body.systemInstruction = { parts: system.flatMap((m) => textParts(m.content)) };
  const generationConfig: Json = {};
  if (input.max_tokens !== undefined) generationConfig.maxOutputTokens = input.max_tokens;
  if (input.temperature !== undefined) generationConfig.temperature = input.temperature;
  if (input.top_p !== undefined) generationConfig.topP = input.top_p;
  if (input.top_k !== undefined) generationConfig.topK = input.top_k;
  if (input.presence_penalty !== undefined) generationConfig.presencePenalty = input.presence_penalty;
  if (input.frequency_penalty !== undefined) generationConfig.frequencyPenalty = input.frequency_penalty;
  if (input.stop !== undefined)
    generationConfig.stopSequences = Array.isArray(input.stop) ? input.stop : [input.stop];
  if (input.reasoning_effort !== undefined) {
    generationConfig.thinkingConfig =
      input.reasoning_effort === 'none'
        ? { thinkingBudget: 0 }
        : { thinkingLevel: input.reasoning_effort.toUpperCase() };
  }
  const format = input.response_format;
  if (format?.type === 'text') generationConfig.responseMimeType = 'text/plain';
  if (format?.type === 'json_object') generationConfig.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    generationConfig.responseMimeType = 'application/json';
    generationConfig.responseJsonSchema = format.json_schema?.['schema'] ?? {};
  }
  if (Object.keys(generationConfig).length) body.generationConfig = generationConfig;
  if (input.tools?.length) {
    const functionDeclarations = input.tools.map(({ function: fn }) => {
      const declaration: Json = { name: fn.name };
      if (fn.description !== undefined) declaration.description = fn.description;
      if (fn.parameters !== undefined) declaration.parametersJsonSchema = fn.parameters;
      return declaration;
    });
    body.tools = [{ functionDeclarations }];
  }
  const choice = input.tool_choice;
  if (choice !== undefined) {
    const functionCallingConfig: Json =
      typeof choice === 'object'
        ? { mode: 'ANY', allowedFunctionNames: [choice.function.name] }
        : { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() };
    body.toolConfig = { functionCallingConfig };
  }
  return body;
}

function textParts(content: TextMessage['content']): Json[] {
  if (content === null) return [];
  if (typeof content === 'string') return [{ text: content }];
  return content.map(partOf);
}

function partOf(part: TextContentPart): Json {
  if (part.type === 'text') return { text: part.text };
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url.url);
  if (data) return { inlineData: { mimeType: data[1], data: data[2] } };
  return { fileData: { fileUri: part.image_url.url } };
}

function partsOf(message: TextMessage, names: Map<string, string>): Json[] {
  if (message.role === 'tool') {
    const id = message.tool_call_id ?? '';
    const response = { content: typeof message.content === 'string' ? message.content : '' };
    return [{ functionResponse: { id, name: names.get(id) ?? message.name ?? '', response } }];
  }
  const parts: Json[] = [];
  for (const block of message.thinking_blocks ?? []) {
    if (block.type === 'thinking' && block.thinking !== '')
      parts.push({ text: block.thinking, thought: true });
    parts.push({ thoughtSignature: thinkingToken(block) });
  }
  const unsigned = unsignedReasoningOf(message);
  if (unsigned !== '') parts.push({ text: unsigned, thought: true });
  parts.push(...textParts(message.content));
  for (const call of message.tool_calls ?? []) {
    names.set(call.id, call.function.name);
    const args: unknown = call.function.arguments ? JSON.parse(call.function.arguments) : {};
    parts.push({ functionCall: { id: call.id, name: call.function.name, args } });
  }
  return parts;
}
