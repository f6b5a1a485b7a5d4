import { thinkingToken, unsignedReasoning } from '../canonical/reasoning';
import type { ChatResult, TextInput, TextThinkingBlock, TextToolCall } from '../canonical/text-input';
import type { Json } from '../canonical/wire';

/** The request fields a Response object echoes back (all optional: absent ones take the API's defaults). */
export type ResponsesEcho = Pick<
  TextInput,
  | 'max_tokens'
  | 'temperature'
  | 'top_p'
  | 'tools'
  | 'tool_choice'
  | 'parallel_tool_calls'
  | 'response_format'
  | 'reasoning_effort'
> & {
  /** The request's `instructions`, as sent (the canonical request has them as its leading system message). */
  readonly instructions?: string;
};

type Base = Pick<ChatResult, 'id' | 'model' | 'created'>;

/** Item ids derive from the response's own id, so a stream and its final object name the same items. */
export const responseId = (id: string): string => `resp_${id}`;
export const messageItemId = (id: string, n = 0): string => (n === 0 ? `msg_${id}` : `msg_${id}_${n}`);
export const reasoningItemId = (id: string, n = 0): string => (n === 0 ? `rs_${id}` : `rs_${id}_${n}`);
export const functionItemId = (id: string, index: number): string => `fc_${id}_${index}`;
/** The call id of a tool call the model did not name (the canonical event may omit it). */
export const fallbackCallId = (id: string, index: number): string => `call_${id}_${index}`;

export function outputTextPart(text: string): Json {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function messageItem(id: string, text: string, status: string): Json {
  return { id, type: 'message', status, role: 'assistant', content: [outputTextPart(text)] };
}

export function summaryPart(text: string): Json {
  return { type: 'summary_text', text };
}

/**
 * A `reasoning` output item: its text as one `summary_text` part (none when it has no text), and, for a block the
 * upstream signed, that block as `encrypted_content` (see `thinkingToken`), the value a Responses client keeps
 * and sends back in its next `input` (OpenAI's own stateless round trip: `store: false` with
 * `include: ["reasoning.encrypted_content"]`; here it is always included, since nothing is stored).
 *
 * The text goes in `summary`, not in `content` (`reasoning_text`): summaries are what OpenAI's reasoning models
 * return and what the SDKs' users and agent frameworks read and display.
 */
export function reasoningItem(id: string, text: string, block?: TextThinkingBlock): Json {
  const item: Json = { id, type: 'reasoning', summary: text === '' ? [] : [summaryPart(text)] };
  if (block) item.encrypted_content = thinkingToken(block);
  return item;
}

/**
 * The reasoning items of an answer, in order: one per signed block (a thinking block's text as its summary, a
 * redacted block with no summary; each with the block as `encrypted_content`), then one for the reasoning no
 * signature closed (an upstream that does not sign), with no `encrypted_content`.
 */
export function reasoningItems(result: ChatResult): Json[] {
  const items = result.thinkingBlocks.map((block, n) =>
    reasoningItem(reasoningItemId(result.id, n), block.type === 'thinking' ? block.thinking : '', block),
  );
  const unsigned = unsignedReasoning(result);
  if (unsigned !== '') items.push(reasoningItem(reasoningItemId(result.id, items.length), unsigned));
  return items;
}

export function functionCallItem(id: string, call: TextToolCall, status: string): Json {
  return {
    id,
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  };
}

/** `usage` of a Response: input includes cached tokens, output includes reasoning tokens (as canonically). */
export function responseUsage(usage: ChatResult['usage']): Json {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * A length or content-filter finish makes the response `incomplete` with its reason, as OpenAI reports a
 * response cut by `max_output_tokens`; every other finish is `completed`.
 */
export function finalStatus(finish: ChatResult['finishReason']): {
  status: string;
  incomplete_details: Json | null;
} {
  if (finish === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The Response object around `output`: the echoed request settings with the API's defaults for the rest. */
export function responseObject(base: Base, echo: ResponsesEcho, fields: Json): Json {
  return {
    id: responseId(base.id),
    object: 'response',
    created_at: base.created,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: echo.instructions ?? null,
    max_output_tokens: echo.max_tokens ?? null,
    model: base.model,
    output: [],
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: echo.reasoning_effort ?? null, summary: null },
    store: false,
    temperature: echo.temperature ?? null,
    text: { format: textFormat(echo.response_format) },
    tool_choice: toolChoice(echo.tool_choice),
    tools: (echo.tools ?? []).map((tool) => ({
      type: 'function',
      name: tool.function.name,
      description: tool.function.description ?? null,
      parameters: tool.function.parameters ?? null,
      strict: tool.function.strict ?? null,
    })),
    top_p: echo.top_p ?? null,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
    ...fields,
  };
}

function textFormat(format: TextInput['response_format']): Json {
  if (!format) return { type: 'text' };
  if (format.type === 'json_schema') return { type: 'json_schema', ...format.json_schema };
  return { type: format.type };
}

function toolChoice(choice: TextInput['tool_choice']): unknown {
  if (choice === undefined) return 'auto';
  if (typeof choice === 'string') return choice;
  return { type: 'function', name: choice.function.name };
}

/**
 * The non-streamed Response of a finished answer: the reasoning items when the model reasoned (see
 * `reasoningItems`), a message item with the text (omitted when the model only called tools), then one
 * `function_call` item per call. `echo` is the canonical input of the request, whose settings the object repeats
 * as OpenAI does.
 */
export function writeResponsesResponse(result: ChatResult, echo: ResponsesEcho = {}): Json {
  const output: Json[] = reasoningItems(result);
  const { status, incomplete_details } = finalStatus(result.finishReason);
  if (result.text !== '' || result.toolCalls.length === 0) {
    output.push(messageItem(messageItemId(result.id), result.text, status));
  }
  result.toolCalls.forEach((call, index) => {
    const named = call.id === '' ? { ...call, id: fallbackCallId(result.id, index) } : call;
    output.push(functionCallItem(functionItemId(result.id, index), named, 'completed'));
  });
  return responseObject(result, echo, {
    status,
    incomplete_details,
    output,
    usage: responseUsage(result.usage),
  });
}
