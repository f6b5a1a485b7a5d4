export { applyFieldRules, nearestLevel, type FieldRulesOutcome } from './apply-field-rules';
export { REASONING_LEVEL_ORDER, type ModelLimits, type SamplingField } from './model-limits';
