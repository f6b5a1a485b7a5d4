/** The languages of human-readable text (spec: Errors, "Language of human-readable text"). */
export const SUPPORTED_LANGUAGES = ['en', 'zh-Hant', 'ja', 'ko', 'de', 'fr', 'es', 'pt-BR', 'ru'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

const TRADITIONAL_CHINESE_REGIONS = new Set(['tw', 'hk', 'mo', 'hant']);
const BY_PRIMARY: Readonly<Record<string, Language>> = {
  en: 'en',
  ja: 'ja',
  ko: 'ko',
  de: 'de',
  fr: 'fr',
  es: 'es',
  ru: 'ru',
  pt: 'pt-BR',
};

/** Maps one language tag to a supported language, or null when it matches nothing (zh-CN, zh-Hans, `*`, ...). */
export function matchLanguage(tag: string): Language | null {
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  const primary = parts[0] ?? '';
  if (primary === 'zh') {
    // zh-Hant, zh-TW, zh-HK (and zh-Hant-TW): Traditional. zh, zh-CN, zh-Hans, zh-SG: nothing.
    return parts[1] !== undefined && TRADITIONAL_CHINESE_REGIONS.has(parts[1]) ? 'zh-Hant' : null;
  }
  return BY_PRIMARY[primary] ?? null;
}

interface Candidate {
  readonly tag: string;
  readonly q: number;
  readonly order: number;
}

function parseAcceptLanguage(header: string): Candidate[] {
  const candidates: Candidate[] = [];
  header.split(',').forEach((part, order) => {
    const [rawTag, ...params] = part.split(';');
    const tag = (rawTag ?? '').trim();
    if (!tag) return;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') {
        q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : -1;
      }
    }
    if (q > 0) candidates.push({ tag, q, order });
  });
  // Highest q first; equal q keeps the header's order.
  return candidates.sort((a, b) => b.q - a.q || a.order - b.order);
}

/**
 * The spec's order of decision: the first recognized candidate of Accept-Language by q; then the account's
 * API error language setting; then English.
 */
export function negotiateLanguage(
  acceptLanguage: string | undefined,
  accountLanguage: string | null | undefined,
): Language {
  if (acceptLanguage) {
    for (const candidate of parseAcceptLanguage(acceptLanguage)) {
      const match = matchLanguage(candidate.tag);
      if (match) return match;
    }
  }
  if (accountLanguage && isSupportedLanguage(accountLanguage)) return accountLanguage;
  return DEFAULT_LANGUAGE;
}

export function isSupportedLanguage(value: string): value is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
