export { ULID_PATTERN, idSchema, newId, randomBase62, ulidIdPattern } from './ids';
export { NANOS_PER_USD, formatUsd, multiplyE9, parseUsd, usdForMetrics } from './money';
export { USD_AMOUNT_PATTERN, UsdAmount, UsdDecimal } from './money-schema';
export { CLOCK, systemClock, type Clock } from './clock';
export { hashSecret, sameHash } from './secret-hash';
export {
  APP_CONFIG,
  ConfigError,
  ConfigSchema,
  describeConfig,
  loadConfig,
  readSettingsFile,
  type AppConfig,
} from './config';
export { LOGGER, createLogger, lazyChildLogger, loggableUrl, type Logger } from './logger';
export { createAjv, firstProblem, validatorFor } from './validation';
export { DomainError, invalidField } from './domain-error';
export { SUPPORTED_LANGUAGES, isSupportedLanguage, negotiateLanguage, type Language } from './i18n/language';
export { CATALOGS, taskErrorMessage, translate, type MessageParams } from './i18n/translate';
export type { MessageId } from './i18n/messages/en';
export {
  MAX_JSON_DEPTH,
  findInputProblem,
  textProblem,
  type InputProblem,
  type TextProblem,
} from './well-formed-input';
export { decodeCursorJson, encodeCursor, invalidCursor } from './opaque-cursor';
export { copyFields, lazyField } from './lazy-field';
export { isUnavailableDependency } from './dependency-unavailable';
export { SHUTDOWN_DRAIN, ShutdownDrain, drainSchedule, type Drainable } from './shutdown-drain';
