import { ProtocolError, type MappedRequest, type TextInput, type TextTool } from '../canonical/text-input';
import { contentMessages, systemMessage } from './contents';
import {
  arrayOf,
  conflicting,
  fieldsOf,
  invalid,
  isObject,
  join,
  missing,
  stringOf,
  unsupported,
  type Field,
} from './fields';
import { jsonSchemaOf } from './schema';

/** What the URL says: the model id (`{model}` of `/v1beta/models/{model}:...`, slashes kept) and which method. */
export interface GenerateContentContext {
  model: string;
  /** `:streamGenerateContent` (with or without `alt=sse`). */
  stream: boolean;
}

/**
 * Request fields read. `cachedContent` is refused (spec rule 6); `safetySettings` is accepted with no effect;
 * `reasoning` is the aggregator-style object of rule 8. Anything else (`model`, `labels`, the aggregator's
 * `provider`, `models`, ...) is refused as unsupported.
 */
const REQUEST_FIELDS = [
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'reasoning',
];
/**
 * generationConfig fields read; `seed`, `responseLogprobs`, `logprobs`, `speechConfig`, `mediaResolution`, ... are
 * refused as unsupported.
 */
const GENERATION_FIELDS = [
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'thinkingConfig',
  'candidateCount',
  'responseModalities',
];
/** Values passed through as they are, under their canonical name (the model-dependent rules run later). */
const PASSED: readonly (readonly [string, keyof TextInput])[] = [
  ['maxOutputTokens', 'max_tokens'],
  ['temperature', 'temperature'],
  ['topP', 'top_p'],
  ['topK', 'top_k'],
  ['presencePenalty', 'presence_penalty'],
  ['frequencyPenalty', 'frequency_penalty'],
  ['stopSequences', 'stop'],
];

/**
 * A generate-content request body as the canonical text input. The model comes from the URL, never the body.
 * Field names are read in camelCase or snake_case, as Google's parser reads them; `paths` and error params use the
 * client's spelling. Server-side tools, `cachedContent`, `candidateCount` other than 1 and fields without a
 * canonical meaning give 400 `unsupported_parameter`; `safetySettings`, `candidateCount: 1` and
 * `responseModalities: ["TEXT"]` are listed in `ignored`.
 */
export function mapGenerateContentRequest(body: unknown, context: GenerateContentContext): MappedRequest {
  if (!isObject(body)) {
    throw new ProtocolError(400, 'invalid_request', 'request.body_required', {}, null);
  }
  const fields = fieldsOf(body, '', REQUEST_FIELDS);
  if (fields.cachedContent) throw unsupported(fields.cachedContent.path);
  if (!fields.contents) throw missing('contents');
  const input: TextInput = { messages: [] };
  const paths: MappedRequest['paths'] = { messages: fields.contents.path };
  const ignored: string[] = [];
  if (fields.safetySettings) ignored.push(fields.safetySettings.path);
  if (fields.systemInstruction) input.messages.push(systemMessage(fields.systemInstruction));
  input.messages.push(...contentMessages(fields.contents, ignored));
  if (fields.generationConfig) readGenerationConfig(fields.generationConfig, input, paths, ignored);
  if (fields.reasoning) {
    if (paths.reasoning_effort) throw conflicting(paths.reasoning_effort, fields.reasoning.path);
    const effort = aggregatorEffort(fields.reasoning);
    if (effort !== undefined) {
      input.reasoning_effort = effort;
      paths.reasoning_effort = fields.reasoning.path;
    }
  }
  if (fields.tools) {
    const tools = functionTools(fields.tools);
    if (tools.length) {
      input.tools = tools;
      paths.tools = fields.tools.path;
    }
  }
  if (fields.toolConfig) {
    const choice = toolChoice(fields.toolConfig, input.tools ?? []);
    if (choice) {
      input.tool_choice = choice.value;
      paths.tool_choice = choice.path;
    }
  }
  return { model: context.model, input, stream: context.stream, includeUsage: true, ignored, paths };
}

function readGenerationConfig(
  field: Field,
  input: TextInput,
  paths: MappedRequest['paths'],
  ignored: string[],
): void {
  const config = fieldsOf(field.value, field.path, GENERATION_FIELDS);
  const target = input as unknown as Record<string, unknown>;
  for (const [name, canonical] of PASSED) {
    const value = config[name];
    if (!value) continue;
    target[canonical] = value.value;
    paths[canonical] = value.path;
  }
  if (config.candidateCount) {
    if (config.candidateCount.value !== 1) throw unsupported(config.candidateCount.path);
    ignored.push(config.candidateCount.path);
  }
  if (config.responseModalities) {
    const modalities = arrayOf(config.responseModalities);
    if (modalities.length !== 1 || String(modalities[0]).toUpperCase() !== 'TEXT') {
      throw unsupported(config.responseModalities.path);
    }
    ignored.push(config.responseModalities.path);
  }
  const format = responseFormat(config);
  if (format) {
    input.response_format = format.value;
    paths.response_format = format.path;
  }
  if (config.thinkingConfig) {
    const effort = thinkingEffort(config.thinkingConfig);
    if (effort) {
      input.reasoning_effort = effort.value;
      paths.reasoning_effort = effort.path;
    }
  }
}

/**
 * `responseMimeType` plus `responseSchema` (OpenAPI subset, converted) or `responseJsonSchema` (JSON Schema, as is)
 * as `response_format`: a schema is `json_schema` (named `response`: Google's schema has no name), JSON alone
 * `json_object`, `text/plain` `text`. A schema without `application/json` is refused as the API refuses it.
 */
function responseFormat(
  config: Partial<Record<string, Field>>,
): { value: NonNullable<TextInput['response_format']>; path: string } | undefined {
  const mime = config.responseMimeType;
  const { responseSchema, responseJsonSchema } = config;
  if (responseSchema && responseJsonSchema) throw conflicting(responseSchema.path, responseJsonSchema.path);
  const schema = responseSchema ?? responseJsonSchema;
  const type = mime ? stringOf(mime).toLowerCase() : undefined;
  if (schema) {
    if (type !== 'application/json') {
      throw new ProtocolError(400, 'invalid_request', 'generate_content.schema_needs_json', {}, schema.path);
    }
    if (!isObject(schema.value)) throw invalid(schema.path);
    const converted = schema === responseSchema ? jsonSchemaOf(schema.value) : schema.value;
    return {
      value: { type: 'json_schema', json_schema: { name: 'response', schema: converted } },
      path: mime!.path,
    };
  }
  if (!mime) return undefined;
  if (type === 'application/json') return { value: { type: 'json_object' }, path: mime.path };
  if (type === 'text/plain') return { value: { type: 'text' }, path: mime.path };
  throw unsupported(mime.path);
}

/** Upper bounds of the thinking budgets mapped to a level: Google's own OpenAI layer maps low/medium/high to these. */
const BUDGET_LEVELS: readonly (readonly [number, string])[] = [
  [1024, 'low'],
  [8192, 'medium'],
];

/**
 * `thinkingConfig` as `reasoning_effort`. `thinkingLevel` (MINIMAL, LOW, MEDIUM, HIGH) is its level in lower case.
 * `thinkingBudget` follows the inverse of Google's OpenAI-compatibility mapping (none = 0, low = 1024,
 * medium = 8192, high = 24576 tokens): 0 is `none`, 1 to 1024 `low`, 1025 to 8192 `medium`, above `high`; -1
 * (dynamic thinking) sets nothing, leaving the model's default. Both at once are refused, as the API refuses them.
 * `includeThoughts` is read by `includesThoughts`, for the response writers.
 */
function thinkingEffort(field: Field): { value: string; path: string } | undefined {
  const config = fieldsOf(field.value, field.path, ['thinkingBudget', 'thinkingLevel', 'includeThoughts']);
  const { thinkingBudget: budget, thinkingLevel: level } = config;
  if (config.includeThoughts && typeof config.includeThoughts.value !== 'boolean') {
    throw invalid(config.includeThoughts.path);
  }
  if (budget && level) throw conflicting(budget.path, level.path);
  if (level) {
    const value = stringOf(level).toLowerCase();
    return value === 'thinking_level_unspecified' ? undefined : { value, path: level.path };
  }
  if (!budget) return undefined;
  const tokens = budget.value;
  if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < -1) throw invalid(budget.path);
  if (tokens === -1) return undefined;
  if (tokens === 0) return { value: 'none', path: budget.path };
  const level_ = BUDGET_LEVELS.find(([bound]) => tokens <= bound)?.[1] ?? 'high';
  return { value: level_, path: budget.path };
}

/** Rule 8: `reasoning: {effort}` gives that level, `enabled: false` gives `none`; its other keys are ignored. */
function aggregatorEffort(field: Field): string | undefined {
  if (!isObject(field.value)) throw invalid(field.path);
  const { effort, enabled } = field.value;
  if (enabled === false) return 'none';
  if (effort === undefined || effort === null) return undefined;
  if (typeof effort !== 'string') throw invalid(join(field.path, 'effort'));
  return effort;
}

/**
 * `tools[].functionDeclarations` as function tools. Any other tool (googleSearch, codeExecution, urlContext,
 * fileSearch, googleMaps, computerUse, ...) runs on Google's side and is refused (spec rule 6). `parameters` is
 * Google's schema subset, converted; `parametersJsonSchema` is JSON Schema, kept. A declaration's `response` /
 * `responseJsonSchema` (the shape of the function's result) has no canonical field and is dropped.
 */
function functionTools(field: Field): TextTool[] {
  return arrayOf(field).flatMap((tool, index) => {
    const fields = fieldsOf(tool, join(field.path, index), ['functionDeclarations']);
    if (!fields.functionDeclarations) return [];
    return arrayOf(fields.functionDeclarations).map((declaration, i) => {
      const path = join(fields.functionDeclarations!.path, i);
      const decl = fieldsOf(declaration, path, [
        'name',
        'description',
        'parameters',
        'parametersJsonSchema',
        'response',
        'responseJsonSchema',
      ]);
      if (!decl.name) throw missing(join(path, 'name'));
      const fn: TextTool['function'] = { name: stringOf(decl.name) };
      if (decl.description) fn.description = stringOf(decl.description);
      if (decl.parameters && decl.parametersJsonSchema) {
        throw conflicting(decl.parameters.path, decl.parametersJsonSchema.path);
      }
      const schema = decl.parameters ?? decl.parametersJsonSchema;
      if (schema) {
        if (!isObject(schema.value)) throw invalid(schema.path);
        fn.parameters = (schema === decl.parameters ? jsonSchemaOf(schema.value) : schema.value) as Record<
          string,
          unknown
        >;
      }
      return { type: 'function' as const, function: fn };
    });
  });
}

/**
 * `toolConfig.functionCallingConfig` as `tool_choice`: AUTO `auto`, NONE `none`, ANY `required`; ANY with one
 * allowed name forces that function, with all the declared names it is `required`, with another subset it cannot
 * be expressed and is refused. `allowedFunctionNames` without ANY is refused, as the API refuses it; VALIDATED mode
 * and `retrievalConfig` are refused as unsupported.
 */
function toolChoice(
  field: Field,
  tools: readonly TextTool[],
): { value: NonNullable<TextInput['tool_choice']>; path: string } | undefined {
  const config = fieldsOf(field.value, field.path, ['functionCallingConfig']);
  const calling = config.functionCallingConfig;
  if (!calling) return undefined;
  const fields = fieldsOf(calling.value, calling.path, ['mode', 'allowedFunctionNames']);
  const mode = fields.mode ? stringOf(fields.mode).toUpperCase() : 'MODE_UNSPECIFIED';
  const allowed = fields.allowedFunctionNames
    ? arrayOf(fields.allowedFunctionNames).map((name, i) => {
        if (typeof name !== 'string') throw invalid(join(fields.allowedFunctionNames!.path, i));
        return name;
      })
    : undefined;
  if (allowed && mode !== 'ANY') throw invalid(fields.allowedFunctionNames!.path);
  switch (mode) {
    case 'MODE_UNSPECIFIED':
      return undefined;
    case 'AUTO':
      return { value: 'auto', path: calling.path };
    case 'NONE':
      return { value: 'none', path: calling.path };
    case 'ANY': {
      if (!allowed || allowed.length === 0) return { value: 'required', path: calling.path };
      const names = new Set(allowed);
      if (names.size === 1) {
        return { value: { type: 'function', function: { name: allowed[0]! } }, path: calling.path };
      }
      const declared = new Set(tools.map((tool) => tool.function.name));
      if (names.size === declared.size && [...names].every((name) => declared.has(name))) {
        return { value: 'required', path: calling.path };
      }
      throw unsupported(fields.allowedFunctionNames!.path);
    }
    case 'VALIDATED':
      throw unsupported(fields.mode!.path);
    default:
      throw invalid(fields.mode!.path);
  }
}

/** `generationConfig.thinkingConfig.includeThoughts`: whether the response shows thought parts (Google's default: no). */
export function includesThoughts(body: unknown): boolean {
  if (!isObject(body)) return false;
  const config = body.generationConfig ?? body.generation_config;
  if (!isObject(config)) return false;
  const thinking = config.thinkingConfig ?? config.thinking_config;
  if (!isObject(thinking)) return false;
  return (thinking.includeThoughts ?? thinking.include_thoughts) === true;
}
