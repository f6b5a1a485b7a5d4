import { SUPPORTED_LANGUAGES } from '../language';
import { de } from './de';
import { en, type ConsoleCatalog, type ConsoleMessageId } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';
import { ko } from './ko';
import { ptBR } from './pt-BR';
import { ru } from './ru';
import { zhHant } from './zh-Hant';

/** The web console's catalogs, beside the API's and held to the same rules (see ../translate.spec.ts). */
const CATALOGS: Readonly<Record<(typeof SUPPORTED_LANGUAGES)[number], ConsoleCatalog>> = {
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
const IDS = Object.keys(en).sort() as ConsoleMessageId[];
const OTHERS = SUPPORTED_LANGUAGES.filter((l) => l !== 'en');
const placeholders = (text: string): string => (text.match(/\{\w+\}/g) ?? []).sort().join();

/** Labels that are the same word in a language as in English (a technical term, a loan word). */
const SAME_AS_ENGLISH: ReadonlySet<ConsoleMessageId> = new Set<ConsoleMessageId>([
  'console.title',
  'console.nav',
  'console.nav.webhooks',
  'console.webhooks.heading',
  'console.webhooks.url',
  'console.webhooks.create.url',
  'console.webhooks.create.description',
  'console.webhooks.endpoints',
  'console.keys.name',
  'console.keys.actions',
  'console.balance.total',
  'console.task.text',
  'console.task.no',
  'console.task.error',
  'console.tasks.model',
  'console.balance.grant_model',
  'console.usage.model',
]);

describe('the web console catalogs', () => {
  it('has one catalog per supported language, every id namespaced console.', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    expect(IDS.every((id) => id.startsWith('console.'))).toBe(true);
  });

  it.each(OTHERS)('%s has exactly the ids and, per id, the placeholders of en', (language) => {
    const catalog = CATALOGS[language];
    expect(Object.keys(catalog).sort()).toEqual(IDS);
    const mismatches = IDS.filter((id) => placeholders(catalog[id]) !== placeholders(en[id]));
    expect(mismatches).toEqual([]);
  });

  it.each([...SUPPORTED_LANGUAGES])('%s has no blank text', (language) => {
    expect(IDS.filter((id) => !CATALOGS[language][id].trim())).toEqual([]);
  });

  it.each(OTHERS)('%s translates the sentences (only listed labels may equal English)', (language) => {
    const untranslated = IDS.filter((id) => CATALOGS[language][id] === en[id] && !SAME_AS_ENGLISH.has(id));
    expect(untranslated).toEqual([]);
  });

  it('keeps the header name a receiver looks for in every language', () => {
    for (const language of SUPPORTED_LANGUAGES)
      expect(CATALOGS[language]['console.webhooks.secret.body']).toContain('X-Webhook-Signature');
  });
});
