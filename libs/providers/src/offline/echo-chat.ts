import { createHash } from 'node:crypto';
import type { ChatEvent, ChatRequest } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import { echoRequestOf, type EchoMessage, type EchoRequest } from './echo-request';

/**
 * `local/echo/chat`, the offline text model: deterministic text built from the conversation, streamed token by
 * token, with real token counts (its own tokenizer: a word or a symbol with the whitespace before it), tool calls
 * and reasoning. Test behaviours go in the last user message (CONTRACT.md):
 * - `[[simulate:upstream_failed]]`, `[[simulate:content_rejected]]`: the request fails before any token;
 *   `[[simulate:stream_cut]]`: the stream breaks after a few tokens (a mid-stream failure);
 * - `[[delay_ms:N]]`: the first token (or the simulated failure, as with the media models) comes after N ms
 *   (the model "thinks");
 * - `[[tool]]`: call the first offered tool (also when `tool_choice` requires a tool).
 */
export const ECHO_LIMITS = { delayMs: { maximum: 600_000 } } as const;

const TOKEN = /\s*(?:[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])|\s+/gu;
const MARKER = /\[\[(simulate|delay_ms):([A-Za-z0-9_]+)\]\]|\[\[tool\]\]/g;

/** The echo tokenizer: pieces that join back to the text, one token each. */
export function echoTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Tokens of a conversation as the echo model counts its input: 4 per message, its text, tool calls, tools. */
export function echoInputTokens(canonical: ChatRequest): number {
  return echoTokensOf(echoRequestOf(canonical));
}

function echoTokensOf(request: EchoRequest): number {
  let tokens = 3;
  for (const message of request.messages) {
    tokens += 4 + echoTokens(message.content ?? '').length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? [])
        tokens += echoTokens(`${call.name} ${call.arguments}`).length;
    }
  }
  if (request.tools?.length) tokens += echoTokens(JSON.stringify(request.tools)).length;
  return tokens;
}

interface Markers {
  simulate?: string;
  delayMs: number;
  tool: boolean;
  text: string;
}

function markersOf(text: string): Markers {
  const markers: Markers = {
    delayMs: 0,
    tool: false,
    text: text.replace(MARKER, '').replace(/\s+/g, ' ').trim(),
  };
  for (const match of text.matchAll(MARKER)) {
    if (match[0] === '[[tool]]') markers.tool = true;
    else if (match[1] === 'simulate') markers.simulate = match[2];
    else markers.delayMs = Math.min(Number(match[2]), ECHO_LIMITS.delayMs.maximum);
  }
  return markers;
}

function lastOf<R extends EchoMessage['role']>(
  messages: readonly EchoMessage[],
  role: R,
): Extract<EchoMessage, { role: R }> | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]!.role === role) return messages[i] as Extract<EchoMessage, { role: R }>;
  }
  return undefined;
}

/** The name of the argument a tool call fills: its first required property, else its first property. */
function argumentName(parameters: Record<string, unknown>): string {
  const required = parameters['required'];
  if (Array.isArray(required) && typeof required[0] === 'string') return required[0];
  const properties = parameters['properties'];
  const [first] = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return first ?? 'input';
}

/**
 * The echo model's answer to a request, as canonical events. `sleep` waits out `[[delay_ms:N]]` (it rejects
 * when the call is aborted).
 */
export async function* echoChat(
  canonical: ChatRequest,
  sleep: (ms: number) => Promise<void>,
): AsyncGenerator<ChatEvent> {
  const request = echoRequestOf(canonical);
  const user = lastOf(request.messages, 'user');
  const markers = markersOf(user?.content ?? '');
  if (markers.delayMs > 0) await sleep(markers.delayMs);
  if (markers.simulate === 'upstream_failed') throw new UpstreamError('failed', 'simulated upstream failure');
  if (markers.simulate === 'content_rejected')
    throw new UpstreamError('rejected', 'simulated content refusal');
  const inputTokens = echoTokensOf(request);
  const budget = request.maxTokens ?? Number.POSITIVE_INFINITY;
  let outputTokens = 0;
  let reasoningTokens = 0;

  if (request.reasoningEffort && request.reasoningEffort !== 'none') {
    const words = markers.text === '' ? 0 : markers.text.split(' ').length;
    for (const piece of echoTokens(`The user wrote ${words} words (${request.reasoningEffort} effort).`)) {
      if (outputTokens >= budget) break;
      yield { type: 'reasoning', delta: piece };
      outputTokens += 1;
      reasoningTokens += 1;
    }
  }

  const last = request.messages[request.messages.length - 1];
  const tool = chosenTool(request, markers);
  if (tool && last?.role !== 'tool' && outputTokens < budget) {
    const args = JSON.stringify({ [argumentName(tool.parameters)]: markers.text });
    const id = `call_${createHash('sha256').update(`${tool.name}\n${args}`).digest('hex').slice(0, 24)}`;
    const pieces = echoTokens(args);
    yield { type: 'tool_call', index: 0, id, name: tool.name, argumentsDelta: '' };
    for (const piece of pieces) yield { type: 'tool_call', index: 0, argumentsDelta: piece };
    outputTokens += pieces.length + 1;
    yield usage(inputTokens, outputTokens, reasoningTokens);
    yield { type: 'finish', reason: 'tool_calls' };
    return;
  }

  let answer =
    last?.role === 'tool'
      ? `The tool ${last.name ?? last.toolCallId} returned: ${last.content}`
      : `Echo: ${markers.text || '(nothing)'}`;
  let reason: 'stop' | 'length' = 'stop';
  for (const stop of request.stop ?? []) {
    const at = stop === '' ? -1 : answer.indexOf(stop);
    if (at >= 0) answer = answer.slice(0, at);
  }
  const pieces = echoTokens(answer);
  for (const [i, piece] of pieces.entries()) {
    if (outputTokens >= budget) {
      reason = 'length';
      break;
    }
    if (markers.simulate === 'stream_cut' && i === 3) {
      throw new UpstreamError('retryable', 'simulated stream cut after the first tokens');
    }
    yield { type: 'text', delta: piece };
    outputTokens += 1;
  }
  yield usage(inputTokens, outputTokens, reasoningTokens);
  yield { type: 'finish', reason };
}

function chosenTool(
  request: EchoRequest,
  markers: Markers,
): { name: string; parameters: Record<string, unknown> } | undefined {
  const tools = request.tools ?? [];
  if (tools.length === 0 || request.toolChoice === 'none') return undefined;
  const choice = request.toolChoice;
  if (typeof choice === 'object') return tools.find((t) => t.name === choice.name);
  if (choice === 'required' || markers.tool) return tools[0];
  return undefined;
}

function usage(inputTokens: number, outputTokens: number, reasoningTokens: number): ChatEvent {
  return { type: 'usage', inputTokens, cachedInputTokens: 0, outputTokens, reasoningTokens };
}
