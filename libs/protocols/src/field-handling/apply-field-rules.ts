import { chatImageUrlProblem } from '@gen/contracts';
import { type MappedRequest, ProtocolError, type TextInput } from '../canonical/text-input';
import { type ModelLimits, REASONING_LEVEL_ORDER, SAMPLING_FIELDS } from './model-limits';

/** The canonical input a model will run, and the two response headers' lists, in the client's field names. */
export interface FieldRulesOutcome {
  input: TextInput;
  /** `X-Service-Ignored-Params`: the mapper's `ignored` (rule 4 and the like) followed by rule 1's. */
  ignored: string[];
  /** `X-Service-Adjusted-Params`: each rule-2 change as `name=value`. */
  adjusted: string[];
}

const ALL_TOOL_CHOICES = ['auto', 'none', 'required', 'function'] as const;

/**
 * The model-dependent rules of the spec's "Field handling", shared by every protocol, on the canonical input
 * (`mapped.input` is not modified). Names in `ignored`, `adjusted` and error `param`s are the client's, from
 * `mapped.paths`.
 * - Rule 3 and 7 first (400 `unsupported_parameter`): tools, `tool_choice`, `parallel_tool_calls` or a message's
 *   `tool_calls` / `tool_call_id` on a model without tools; a `tool_choice` form the model does not accept (a
 *   named function on an auto/none-only model); `response_format` on a model listing none, or of a type it does
 *   not list; an `image_url` part on a model without images (param `<messages>.<i>.content.<j>`). On a model
 *   with images, an image URL the service does not take (`chatImageUrlProblem`: not a supported `data:` image of
 *   at most 10 MiB, not https on port 443 without user info, not a `service://files/` URI) is 400
 *   `invalid_request` at the same param, before any hold.
 * - Rule 1, dropped and listed in `ignored`: a sampling field the model does not list, an empty `stop` (`""` or
 *   `[]`), `stop` on a model without stop sequences, `reasoning_effort` on a model without levels, and
 *   `reasoning.enabled: false` (canonical `none`) on a model without a `none` level: rule 8 turns it into `none`
 *   only "where the model has it", and the model cannot turn reasoning off.
 * - Rule 2, changed and listed in `adjusted`: a sampling value clamped to the model's bound (`temperature=2`);
 *   `max_tokens` above the model's `maxOutputTokens` clamped to it (`max_tokens=8192`, a change the spec implies
 *   by bounding `max_tokens` in `inputSchema`); a `stop` list longer than the model allows keeps its first entries
 *   (`stop=4`: the number kept, since the entries themselves may hold commas); a `reasoning_effort` level the
 *   model lacks becomes the nearest level it offers in `REASONING_LEVEL_ORDER`, the lower one on a tie
 *   (`reasoning_effort=high`). A level outside that order, or a value of the wrong type, is left as it is for the
 *   schema validation that follows (rule 5) to refuse.
 * - Last, a field the model accepts but its upstream has no name for (`notSent`: `top_a` on an Anthropic model,
 *   `parallel_tool_calls` on Gemini) is dropped and listed in `ignored`: it would not reach the model.
 */
export function applyFieldRules(mapped: MappedRequest, model: ModelLimits): FieldRulesOutcome {
  // The rules set and delete top-level fields only (a shortened `stop` is a new array): a shallow copy keeps
  // `mapped.input` as it was without copying the conversation (a deep copy cost about 25 µs of a small chat
  // request's CPU, and grows with the messages and their inline images).
  const input = { ...mapped.input };
  const name = (field: keyof TextInput): string => mapped.paths[field] ?? field;
  refuseUnsupported(input, model, mapped.model, name);

  const ignored = [...mapped.ignored];
  const adjusted: string[] = [];
  for (const field of SAMPLING_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const bound = model.parameters[field];
    if (!bound) {
      delete input[field];
      ignored.push(name(field));
      continue;
    }
    if (typeof value !== 'number') continue;
    const clamped = Math.min(Math.max(value, bound.minimum), bound.maximum);
    if (clamped !== value) {
      input[field] = clamped;
      adjusted.push(`${name(field)}=${clamped}`);
    }
  }

  if (typeof input.max_tokens === 'number' && input.max_tokens > model.maxOutputTokens) {
    input.max_tokens = model.maxOutputTokens;
    adjusted.push(`${name('max_tokens')}=${model.maxOutputTokens}`);
  }

  const stop = input.stop;
  if (stop !== undefined) {
    if (stop === '' || (Array.isArray(stop) && stop.length === 0) || model.maxStopSequences <= 0) {
      delete input.stop;
      ignored.push(name('stop'));
    } else if (Array.isArray(stop) && stop.length > model.maxStopSequences) {
      input.stop = stop.slice(0, model.maxStopSequences);
      adjusted.push(`${name('stop')}=${model.maxStopSequences}`);
    }
  }

  const effort = input.reasoning_effort;
  if (effort !== undefined) {
    const disabling = mapped.paths.reasoning_effort === 'reasoning.enabled' && effort === 'none';
    if (model.reasoningLevels.length === 0 || (disabling && !model.reasoningLevels.includes('none'))) {
      delete input.reasoning_effort;
      ignored.push(name('reasoning_effort'));
    } else if (!model.reasoningLevels.includes(effort)) {
      const level = nearestLevel(effort, model.reasoningLevels);
      if (level !== undefined) {
        input.reasoning_effort = level;
        adjusted.push(`${name('reasoning_effort')}=${level}`);
      }
    }
  }

  for (const field of model.notSent ?? []) {
    const key = field as keyof TextInput;
    if (input[key] === undefined || ignored.includes(name(key))) continue;
    delete input[key];
    ignored.push(name(key));
  }
  return { input, ignored, adjusted };
}

/** The offered level closest to `wanted` along `REASONING_LEVEL_ORDER`, the lower one on a tie. */
export function nearestLevel(wanted: string, offered: readonly string[]): string | undefined {
  const rank = (level: string): number => (REASONING_LEVEL_ORDER as readonly string[]).indexOf(level);
  const target = rank(wanted);
  if (target < 0) return undefined;
  let best: { level: string; distance: number; rank: number } | undefined;
  for (const level of offered) {
    const r = rank(level);
    if (r < 0) continue;
    const distance = Math.abs(r - target);
    if (!best || distance < best.distance || (distance === best.distance && r < best.rank)) {
      best = { level, distance, rank: r };
    }
  }
  return best?.level;
}

function refuseUnsupported(
  input: TextInput,
  model: ModelLimits,
  modelId: string,
  name: (field: keyof TextInput) => string,
): void {
  const parameter = (param: string): ProtocolError =>
    new ProtocolError(
      400,
      'unsupported_parameter',
      'compat.model_unsupported_parameter',
      { model: modelId, param },
      param,
    );
  const value = (param: string, shown: string): ProtocolError =>
    new ProtocolError(
      400,
      'unsupported_parameter',
      'compat.model_unsupported_value',
      { model: modelId, param, value: shown },
      param,
    );

  if (!model.tools) {
    for (const field of ['tools', 'tool_choice', 'parallel_tool_calls'] as const) {
      if (input[field] !== undefined) throw parameter(name(field));
    }
  } else if (input.tool_choice !== undefined) {
    const form = typeof input.tool_choice === 'string' ? input.tool_choice : 'function';
    if (!(model.toolChoice ?? ALL_TOOL_CHOICES).includes(form)) throw value(name('tool_choice'), form);
  }

  const format = input.response_format;
  if (format !== undefined) {
    if (model.responseFormats.length === 0) throw parameter(name('response_format'));
    if (!model.responseFormats.includes(format.type)) throw value(name('response_format'), format.type);
  }

  const messages = name('messages');
  input.messages.forEach((message, i) => {
    if (!model.tools) {
      if (message.tool_calls !== undefined) throw parameter(`${messages}.${i}.tool_calls`);
      if (message.tool_call_id !== undefined) throw parameter(`${messages}.${i}.tool_call_id`);
    }
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, j) => {
      if (part.type !== 'image_url') return;
      const param = `${messages}.${i}.content.${j}`;
      if (model.images) {
        const reason = chatImageUrlProblem(part.image_url.url);
        if (reason === null) return;
        throw new ProtocolError(
          400,
          'invalid_request',
          'input.image_url_invalid',
          { field: param, reason },
          param,
        );
      }
      throw new ProtocolError(
        400,
        'unsupported_parameter',
        'compat.model_no_images',
        { model: modelId, param },
        param,
      );
    });
  });
}
