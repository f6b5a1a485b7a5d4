import { de } from './messages/de';
import { en, type MessageCatalog, type MessageId } from './messages/en';
import { es } from './messages/es';
import { fr } from './messages/fr';
import { ja } from './messages/ja';
import { ko } from './messages/ko';
import { ptBR } from './messages/pt-BR';
import { ru } from './messages/ru';
import { zhHant } from './messages/zh-Hant';
import type { Language } from './language';

export const CATALOGS: Readonly<Record<Language, MessageCatalog>> = {
  en,
  'zh-Hant': zhHant,
  ja,
  ko,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ru,
};

export type MessageParams = Readonly<Record<string, string | number>>;

/** The message `id` in `language`, with `{name}` placeholders filled from `params`. */
export function translate(language: Language, id: MessageId, params: MessageParams = {}): string {
  const template = CATALOGS[language][id];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

const TASK_ERROR_MESSAGES: Readonly<Record<string, MessageId>> = {
  upstream_failed: 'task.error.upstream_failed',
  content_rejected: 'task.error.content_rejected',
  input_unavailable: 'task.error.input_unavailable',
  input_invalid: 'task.error.input_invalid',
  service_interrupted: 'task.error.service_interrupted',
};

/** The localized `errorMessage` of a failed task's `errorCode` (recordInfo, callbacks, events). */
export function taskErrorMessage(language: Language, errorCode: string): string {
  return translate(language, TASK_ERROR_MESSAGES[errorCode] ?? 'task.error.internal_error');
}
