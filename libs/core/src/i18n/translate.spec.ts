import { SUPPORTED_LANGUAGES, type Language } from './language';
import type { MessageId } from './messages/en';
import { CATALOGS, translate } from './translate';

const EN = CATALOGS.en;
const IDS = Object.keys(EN).sort() as MessageId[];
const OTHER_LANGUAGES = SUPPORTED_LANGUAGES.filter((l): l is Exclude<Language, 'en'> => l !== 'en');

const placeholders = (text: string): string[] => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();

/**
 * Literal text a caller types or searches for (header names, a media type, field names, language tags):
 * every language must keep it verbatim.
 */
const VERBATIM: ReadonlyArray<readonly [MessageId, string]> = [
  ['auth.missing_key', 'Authorization: Bearer <API_KEY>'],
  ['auth.unsupported_scheme', 'Authorization: Bearer <API_KEY>'],
  ['auth.key_in_query', 'Authorization'],
  ['request.unsupported_media_type', 'application/json'],
  ['server.error', 'request_id'],
  ['language.unsupported', 'en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru'],
  ['credit.model_required', 'model'],
  ['credit.model_only_for_grants', 'model'],
  ['credit.model_unknown', 'model'],
  ['credit.model_unknown', 'publisher/model/chat'],
  ['request.invalid_utf8', 'UTF-8'],
];
/**
 * Ids whose text is mostly such literal text, so a translation may legitimately equal English.
 * None today; add one only with a reason.
 */
const MOSTLY_TECHNICAL: ReadonlySet<MessageId> = new Set<MessageId>();

describe('message catalogs', () => {
  it('has one catalog per supported language', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  it('has a non-trivial English catalog', () => {
    expect(IDS.length).toBeGreaterThanOrEqual(30);
    expect(IDS).toContain('success');
    expect(IDS).toContain('auth.missing_key');
  });

  it.each(OTHER_LANGUAGES)('%s has exactly the ids of en', (language) => {
    expect(Object.keys(CATALOGS[language]).sort()).toEqual(IDS);
  });

  it.each(OTHER_LANGUAGES)('%s has, per id, exactly the placeholders of en', (language) => {
    const mismatches = IDS.filter(
      (id) => placeholders(CATALOGS[language][id]).join() !== placeholders(EN[id]).join(),
    ).map((id) => `${id}: ${placeholders(CATALOGS[language][id]).join()} vs ${placeholders(EN[id]).join()}`);
    expect(mismatches).toEqual([]);
  });

  it.each(OTHER_LANGUAGES)('%s uses each placeholder as often as en does', (language) => {
    const count = (text: string) => (text.match(/\{\w+\}/g) ?? []).length;
    const mismatches = IDS.filter((id) => count(CATALOGS[language][id]) !== count(EN[id]));
    expect(mismatches).toEqual([]);
  });

  it.each([...SUPPORTED_LANGUAGES])('%s has no empty or blank value', (language) => {
    const blank = IDS.filter(
      (id) => typeof CATALOGS[language][id] !== 'string' || !CATALOGS[language][id].trim(),
    );
    expect(blank).toEqual([]);
  });

  it.each([...SUPPORTED_LANGUAGES])('%s has no stray braces outside {name} placeholders', (language) => {
    const stray = IDS.filter((id) => /[{}]/.test(CATALOGS[language][id].replace(/\{\w+\}/g, '')));
    expect(stray).toEqual([]);
  });

  it.each(OTHER_LANGUAGES)(
    '%s is translated, not copied from en, for at least 80% of the ids',
    (language) => {
      const judged = IDS.filter((id) => !MOSTLY_TECHNICAL.has(id));
      const copied = judged.filter((id) => CATALOGS[language][id].trim() === EN[id].trim());
      expect(copied.length / judged.length).toBeLessThanOrEqual(0.2);
      // Catalogs share the literal parts, but a whole catalog identical to another one is a copy-paste.
      for (const other of OTHER_LANGUAGES.filter((l) => l !== language)) {
        const same = judged.filter((id) => CATALOGS[language][id] === CATALOGS[other][id]);
        expect({ other, same: same.length / judged.length <= 0.2 }).toEqual({ other, same: true });
      }
    },
  );

  it.each(OTHER_LANGUAGES)(
    '%s keeps literal text such as header names and field names verbatim',
    (language) => {
      const lost = VERBATIM.filter(([id, literal]) => !CATALOGS[language][id].includes(literal)).map(
        ([id, literal]) => `${id}: ${literal}`,
      );
      expect(lost).toEqual([]);
    },
  );

  it('has English texts that contain the verbatim literals themselves', () => {
    for (const [id, literal] of VERBATIM) expect(EN[id]).toContain(literal);
  });
});

describe('translate', () => {
  it('returns the catalog text of the language', () => {
    expect(translate('en', 'auth.invalid_key')).toBe('Invalid API key.');
    expect(translate('de', 'auth.invalid_key')).toBe('Ungültiger API-Schlüssel.');
    expect(translate('en', 'success')).toBe('success');
    for (const language of SUPPORTED_LANGUAGES) {
      expect(translate(language, 'request.not_found')).toBe(CATALOGS[language]['request.not_found']);
    }
  });

  it('fills a string placeholder', () => {
    expect(translate('en', 'request.invalid_field', { field: 'model' })).toBe(
      'Invalid value for field model.',
    );
    expect(translate('de', 'request.invalid_field', { field: 'model' })).toBe(
      'Ungültiger Wert für das Feld model.',
    );
  });

  it('fills a number placeholder', () => {
    expect(translate('en', 'rate.limited', { seconds: 3 })).toBe('Too many requests. Retry after 3 seconds.');
    expect(translate('en', 'request.body_too_large', { limit: 1048576 })).toBe(
      'The request body is too large. The limit is 1048576 bytes.',
    );
    expect(translate('en', 'rate.limited', { seconds: 0 })).toBe('Too many requests. Retry after 0 seconds.');
  });

  it('fills every placeholder of every catalog text', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const id of IDS) {
        const params = Object.fromEntries(placeholders(EN[id]).map((p) => [p.slice(1, -1), 'VALUE']));
        const text = translate(language, id, params);
        expect({ language, id, text: /\{\w+\}/.test(text) }).toEqual({ language, id, text: false });
      }
    }
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(translate('en', 'request.invalid_field')).toBe('Invalid value for field {field}.');
    expect(translate('en', 'request.invalid_field', { other: 'x' })).toBe('Invalid value for field {field}.');
  });

  it('ignores parameters the text does not use', () => {
    expect(translate('en', 'auth.invalid_key', { field: 'x' })).toBe('Invalid API key.');
  });

  it('inserts values literally: no replacement patterns, no second pass', () => {
    expect(translate('en', 'request.invalid_field', { field: '$&' })).toBe('Invalid value for field $&.');
    expect(translate('en', 'request.invalid_field', { field: "$' $` $$" })).toBe(
      "Invalid value for field $' $` $$.",
    );
    expect(translate('en', 'request.invalid_field', { field: '{field}' })).toBe(
      'Invalid value for field {field}.',
    );
    expect(translate('en', 'group.unknown', { group: '{language}', language: 'xx' })).toBe(
      'Unknown account group {language}.',
    );
  });

  it('does not read placeholder values from the prototype of params', () => {
    const params = Object.create({ field: 'inherited' }) as Record<string, string>;
    expect(translate('en', 'request.invalid_field', params)).toBe('Invalid value for field {field}.');
  });
});
