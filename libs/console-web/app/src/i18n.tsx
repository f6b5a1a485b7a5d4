import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, type ConsoleCatalog, type ConsoleMessageId } from '@console-i18n/en';
import { SUPPORTED_LANGUAGES, matchLanguage, isSupportedLanguage, type Language } from '@core-language';

export { SUPPORTED_LANGUAGES, type Language };

/** Each language's own name, for the picker (never translated). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  'zh-Hant': '繁體中文',
  ja: '日本語',
  ko: '한국어',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ru: 'Русский',
};

/** English is in the first screen's bundle; every other language is its own chunk, loaded when chosen. */
const LOADERS: Readonly<Record<Exclude<Language, 'en'>, () => Promise<ConsoleCatalog>>> = {
  'zh-Hant': () => import('@console-i18n/zh-Hant').then((m) => m.zhHant),
  ja: () => import('@console-i18n/ja').then((m) => m.ja),
  ko: () => import('@console-i18n/ko').then((m) => m.ko),
  de: () => import('@console-i18n/de').then((m) => m.de),
  fr: () => import('@console-i18n/fr').then((m) => m.fr),
  es: () => import('@console-i18n/es').then((m) => m.es),
  'pt-BR': () => import('@console-i18n/pt-BR').then((m) => m.ptBR),
  ru: () => import('@console-i18n/ru').then((m) => m.ru),
};

export function loadCatalog(language: Language): Promise<ConsoleCatalog> {
  return language === 'en' ? Promise.resolve(en) : LOADERS[language]();
}

const CHOSEN = 'console.language';

/** The picker's choice, else the browser's languages (its Accept-Language), else the account's, else English. */
export function initialLanguage(accountLanguage: string | null): Language {
  const chosen = localStorage.getItem(CHOSEN);
  if (chosen && isSupportedLanguage(chosen)) return chosen;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return accountLanguage && isSupportedLanguage(accountLanguage) ? accountLanguage : 'en';
}
export function rememberLanguage(language: Language): void {
  localStorage.setItem(CHOSEN, language);
}

export type Translate = (id: ConsoleMessageId, params?: Record<string, string | number>) => string;

export function translator(catalog: ConsoleCatalog): Translate {
  return (id, params = {}) =>
    catalog[id].replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
    );
}

export interface I18n {
  readonly language: Language;
  readonly t: Translate;
  readonly setLanguage: (language: Language) => void;
}
export const I18nContext = createContext<I18n>({
  language: 'en',
  t: translator(en),
  setLanguage: () => undefined,
});
export const useI18n = (): I18n => useContext(I18nContext);

/** Dates and times in the chosen language, in the browser's time zone. */
export function formatTime(language: Language, iso: string | null | undefined): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
