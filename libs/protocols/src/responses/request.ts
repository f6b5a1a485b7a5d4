import type { MappedRequest, TextInput, TextTool } from '../canonical/text-input';
import { ProtocolError } from '../canonical/text-input';
import { mapInput } from './input-items';
import { invalid, isRecord, missing, unsupported, unsupportedType, type Json } from '../canonical/wire';

/** Platform fields of the Responses API that have no effect here (spec field handling, rule 4). */
const IGNORED = ['user', 'metadata', 'store', 'include'] as const;

/** Sampling and length fields whose values pass through untouched under their canonical names. */
const PASSED: ReadonlyArray<readonly [string, keyof TextInput]> = [
  ['max_output_tokens', 'max_tokens'],
  ['temperature', 'temperature'],
  ['top_p', 'top_p'],
  ['parallel_tool_calls', 'parallel_tool_calls'],
];

/** Every top-level field this mapper reads; anything else is refused with 400 `unsupported_parameter`. */
const KNOWN = new Set<string>([
  'model',
  'input',
  'instructions',
  'stream',
  'tools',
  'tool_choice',
  'text',
  'reasoning',
  ...PASSED.map(([field]) => field),
  ...IGNORED,
]);

/**
 * Maps a `POST /v1/responses` body to the canonical text input. Names are translated per the spec's mapping
 * table (`instructions` + `input` -> messages, `max_output_tokens` -> max_tokens, `text.format` ->
 * response_format, `reasoning.effort` -> reasoning_effort, function tools); values are left as sent, for the
 * model-dependent field rules and the schema validation that run afterwards. A field set to `null` counts as
 * absent (the API documents these fields as nullable). `previous_response_id` is refused (rule 5: the full
 * history goes in `input`), as are server tools, aggregator fields (rule 8) and every field the mapping table
 * does not list. The model is in the body, so the mapper needs no context.
 */
export function mapResponsesRequest(body: unknown): MappedRequest {
  if (!isRecord(body)) throw new ProtocolError(400, 'invalid_request', 'request.body_required');
  const fields = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== null && value !== undefined),
  );
  if ('previous_response_id' in fields) {
    throw new ProtocolError(
      400,
      'unsupported_parameter',
      'responses.previous_response_id',
      {},
      'previous_response_id',
    );
  }
  for (const field of Object.keys(fields)) if (!KNOWN.has(field)) throw unsupported(field);

  if (typeof fields.model !== 'string' || fields.model === '') throw missing('model');
  if (fields.input === undefined) throw missing('input');
  if (fields.stream !== undefined && typeof fields.stream !== 'boolean') throw invalid('stream');

  const ignored = IGNORED.filter((field) => field in fields) as string[];
  const input: TextInput = { messages: mapInput(fields.instructions, fields.input, ignored) };
  const paths: MappedRequest['paths'] = { messages: 'input' };

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
    input.tool_choice = mapToolChoice(fields.tool_choice);
    paths.tool_choice = 'tool_choice';
  }
  if (fields.text !== undefined) {
    const format = mapText(fields.text);
    if (format) {
      input.response_format = format;
      paths.response_format = 'text.format';
    }
  }
  if (fields.reasoning !== undefined) {
    const effort = mapReasoning(fields.reasoning, ignored);
    if (effort !== undefined) {
      input.reasoning_effort = effort;
      paths.reasoning_effort =
        effort === 'none' && !hasEffort(fields.reasoning) ? 'reasoning.enabled' : 'reasoning.effort';
    }
  }
  return { model: fields.model, input, stream: fields.stream === true, includeUsage: true, ignored, paths };
}

function mapTools(tools: unknown): TextTool[] {
  if (!Array.isArray(tools)) throw invalid('tools');
  return tools.map((tool: unknown, index) => {
    const path = `tools.${index}`;
    if (!isRecord(tool)) throw invalid(path);
    if (tool.type !== 'function') throw unsupportedType(path, tool.type);
    if (typeof tool.name !== 'string' || tool.name === '') throw missing(`${path}.name`);
    const fn: TextTool['function'] = { name: tool.name };
    if (tool.description != null) fn.description = tool.description as string;
    if (tool.parameters != null) fn.parameters = tool.parameters as Record<string, unknown>;
    if (tool.strict != null) fn.strict = tool.strict as boolean;
    return { type: 'function', function: fn };
  });
}

function mapToolChoice(choice: unknown): NonNullable<TextInput['tool_choice']> {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (isRecord(choice) && choice.type === 'function') {
    if (typeof choice.name !== 'string' || choice.name === '') throw missing('tool_choice.name');
    return { type: 'function', function: { name: choice.name } };
  }
  // Hosted-tool choices (file_search, web_search, ...), allowed_tools and mcp have no canonical counterpart.
  if (isRecord(choice)) throw unsupportedType('tool_choice', choice.type);
  throw invalid('tool_choice');
}

/** `text.format` -> response_format (chat-completions shape: the json_schema fields move under `json_schema`). */
function mapText(text: unknown): TextInput['response_format'] | undefined {
  if (!isRecord(text)) throw invalid('text');
  for (const key of Object.keys(text)) {
    if (key !== 'format' && text[key] != null) throw unsupported(`text.${key}`);
  }
  const format = text.format;
  if (format == null) return undefined;
  if (!isRecord(format)) throw invalid('text.format');
  switch (format.type) {
    case 'text':
    case 'json_object':
      return { type: format.type };
    case 'json_schema': {
      const { type: _type, ...schema } = format;
      return { type: 'json_schema', json_schema: schema };
    }
    default:
      throw unsupportedType('text.format', format.type);
  }
}

function hasEffort(reasoning: unknown): boolean {
  return isRecord(reasoning) && reasoning.effort != null;
}

/**
 * `reasoning.effort` -> reasoning_effort. An aggregator-style `enabled: false` (rule 8) means `none`; the
 * object's other keys (`summary`, `generate_summary`, an aggregator's `max_tokens` / `exclude`) are ignored.
 */
function mapReasoning(reasoning: unknown, ignored: string[]): string | undefined {
  if (!isRecord(reasoning)) throw invalid('reasoning');
  for (const key of Object.keys(reasoning)) {
    if (key !== 'effort' && key !== 'enabled' && reasoning[key] != null) ignored.push(`reasoning.${key}`);
  }
  if (reasoning.effort != null) return reasoning.effort as string;
  if (reasoning.enabled === false) return 'none';
  return undefined;
}
