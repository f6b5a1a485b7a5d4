import type { MappedRequest, TextInput, TextTool } from '../canonical/text-input';
import { ProtocolError } from '../canonical/text-input';
import { mapMessages, mapSystem } from './content';
import { invalid, isRecord, missing, unsupported, unsupportedType, type Json } from '../canonical/wire';

/**
 * Fields accepted and ignored: `metadata` (spec field handling, rule 4) and `thinking`, whose canonical
 * counterpart the mapping table leaves empty (reasoning_effort: none for Messages): a thinking budget in tokens
 * has no faithful level, so the model reasons as it does by default and the header names the field.
 */
const IGNORED = ['metadata', 'thinking'] as const;

/** Fields whose values pass through untouched under their canonical names. */
const PASSED: ReadonlyArray<readonly [string, keyof TextInput]> = [
  ['max_tokens', 'max_tokens'],
  ['temperature', 'temperature'],
  ['top_p', 'top_p'],
  ['top_k', 'top_k'],
  ['stop_sequences', 'stop'],
];

/** Every top-level field this mapper reads; anything else is refused with 400 `unsupported_parameter`. */
const KNOWN = new Set<string>([
  'model',
  'messages',
  'system',
  'stream',
  'tools',
  'tool_choice',
  ...PASSED.map(([field]) => field),
  ...IGNORED,
]);

/**
 * Maps a `POST /v1/messages` body to the canonical text input: `system` + `messages` -> messages, `max_tokens`
 * (required by the protocol), temperature, top_p, top_k, `stop_sequences` -> stop, custom tools (name,
 * description, input_schema) -> function tools, `tool_choice` auto / any / tool / none -> auto / required /
 * {function} / none, and `tool_choice.disable_parallel_tool_use` -> parallel_tool_calls (negated). Values are
 * left as sent for the model-dependent rules and schema validation that follow; a field set to `null` counts as
 * absent. Server tools, aggregator fields (rule 8) and every field not listed here give 400. The model is in the
 * body, so the mapper needs no context.
 */
export function mapMessagesRequest(body: unknown): MappedRequest {
  if (!isRecord(body)) throw new ProtocolError(400, 'invalid_request', 'request.body_required');
  const fields = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== null && value !== undefined),
  );
  for (const field of Object.keys(fields)) if (!KNOWN.has(field)) throw unsupported(field);

  if (typeof fields.model !== 'string' || fields.model === '') throw missing('model');
  if (fields.max_tokens === undefined) throw missing('max_tokens');
  if (fields.stream !== undefined && typeof fields.stream !== 'boolean') throw invalid('stream');

  const messages = mapMessages(fields.messages);
  const input: TextInput = {
    messages: fields.system === undefined ? messages : [mapSystem(fields.system), ...messages],
  };
  const paths: MappedRequest['paths'] = { messages: 'messages' };
  for (const [field, canonical] of PASSED) {
    if (fields[field] === undefined) continue;
    (input as unknown as Json)[canonical] = fields[field];
    paths[canonical] = field;
  }
  if (fields.tools !== undefined) {
    input.tools = mapTools(fields.tools);
    paths.tools = 'tools';
  }
  if (fields.tool_choice !== undefined) {
    const { choice, parallel } = mapToolChoice(fields.tool_choice);
    input.tool_choice = choice;
    paths.tool_choice = 'tool_choice';
    if (parallel !== undefined) {
      input.parallel_tool_calls = parallel;
      paths.parallel_tool_calls = 'tool_choice.disable_parallel_tool_use';
    }
  }
  return {
    model: fields.model,
    input,
    stream: fields.stream === true,
    includeUsage: true,
    ignored: IGNORED.filter((field) => field in fields),
    paths,
  };
}

/** Custom tools only (no `type`, or `custom`); Anthropic's server and client-defined tools are refused. */
function mapTools(tools: unknown): TextTool[] {
  if (!Array.isArray(tools)) throw invalid('tools');
  return tools.map((tool: unknown, index) => {
    const path = `tools.${index}`;
    if (!isRecord(tool)) throw invalid(path);
    if (tool.type != null && tool.type !== 'custom') throw unsupportedType(path, tool.type);
    if (typeof tool.name !== 'string' || tool.name === '') throw missing(`${path}.name`);
    if (tool.input_schema === undefined) throw missing(`${path}.input_schema`);
    const fn: TextTool['function'] = { name: tool.name };
    if (tool.description != null) fn.description = tool.description as string;
    fn.parameters = tool.input_schema as Record<string, unknown>;
    return { type: 'function', function: fn };
  });
}

const CHOICES: Record<string, 'auto' | 'required' | 'none'> = { auto: 'auto', any: 'required', none: 'none' };

function mapToolChoice(choice: unknown): {
  choice: NonNullable<TextInput['tool_choice']>;
  parallel: boolean | undefined;
} {
  if (!isRecord(choice)) throw invalid('tool_choice');
  const disable = choice.disable_parallel_tool_use;
  if (disable != null && typeof disable !== 'boolean') throw invalid('tool_choice.disable_parallel_tool_use');
  const parallel = disable == null ? undefined : !disable;
  if (choice.type === 'tool') {
    if (typeof choice.name !== 'string' || choice.name === '') throw missing('tool_choice.name');
    return { choice: { type: 'function', function: { name: choice.name } }, parallel };
  }
  const mapped = typeof choice.type === 'string' ? CHOICES[choice.type] : undefined;
  if (!mapped) throw invalid('tool_choice.type');
  return { choice: mapped, parallel };
}
