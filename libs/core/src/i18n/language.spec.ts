import { DEFAULT_LANGUAGE, isSupportedLanguage, negotiateLanguage, SUPPORTED_LANGUAGES } from './language';

/** Spec, Errors, "Language of human-readable text": the order of decision, one rule per test. */
describe('negotiateLanguage', () => {
  it('supports exactly the nine languages of the spec, English by default', () => {
    expect([...SUPPORTED_LANGUAGES]).toEqual(['en', 'zh-Hant', 'ja', 'ko', 'de', 'fr', 'es', 'pt-BR', 'ru']);
    expect(DEFAULT_LANGUAGE).toBe('en');
  });

  it('picks the candidate with the highest q, even when it is listed later', () => {
    expect(negotiateLanguage('fr;q=0.5, ja;q=0.9', null)).toBe('ja');
    expect(negotiateLanguage('de;q=0.1, es;q=0.2, ru', null)).toBe('ru');
  });

  it('keeps the header order among candidates of equal q', () => {
    expect(negotiateLanguage('ko;q=0.8, de;q=0.8', null)).toBe('ko');
    expect(negotiateLanguage('de;q=0.8, ko;q=0.8', null)).toBe('de');
    expect(negotiateLanguage('es, fr', null)).toBe('es');
    expect(negotiateLanguage('fr;q=1, es', null)).toBe('fr');
  });

  it('maps a regional variant to its language: de-DE to de', () => {
    expect(negotiateLanguage('de-DE', null)).toBe('de');
    expect(negotiateLanguage('de-AT', null)).toBe('de');
    expect(negotiateLanguage('fr-CA', null)).toBe('fr');
    expect(negotiateLanguage('en-GB', null)).toBe('en');
  });

  it('maps pt-PT to pt-BR', () => {
    expect(negotiateLanguage('pt-PT', null)).toBe('pt-BR');
  });

  it('maps plain pt to pt-BR', () => {
    expect(negotiateLanguage('pt', null)).toBe('pt-BR');
  });

  it.each(['zh-TW', 'zh-HK', 'zh-Hant', 'zh-Hant-TW', 'zh-Hant-HK'])('maps %s to zh-Hant', (tag) => {
    expect(negotiateLanguage(tag, null)).toBe('zh-Hant');
  });

  it.each(['zh-CN', 'zh-Hans', 'zh-Hans-TW', 'zh', '*'])(
    'treats %s as matching nothing and tries the next candidate',
    (tag) => {
      expect(negotiateLanguage(`${tag}, ja;q=0.5`, null)).toBe('ja');
      expect(negotiateLanguage(tag, null)).toBe('en');
    },
  );

  it('tries the next candidate by q when the better ones match nothing', () => {
    expect(negotiateLanguage('zh-CN, zh;q=0.9, *;q=0.8, it;q=0.7, ko;q=0.1, fr;q=0.05', null)).toBe('ko');
  });

  it('falls to the account setting when the header has nothing recognized', () => {
    expect(negotiateLanguage('zh-CN, it, *', 'ja')).toBe('ja');
    expect(negotiateLanguage('zh-Hans', 'pt-BR')).toBe('pt-BR');
  });

  it('falls to the account setting when there is no header or an empty one', () => {
    expect(negotiateLanguage(undefined, 'ko')).toBe('ko');
    expect(negotiateLanguage('', 'ru')).toBe('ru');
  });

  it('prefers a recognized header over the account setting', () => {
    expect(negotiateLanguage('fr', 'ja')).toBe('fr');
  });

  it('falls to English when neither the header nor the account setting decides', () => {
    expect(negotiateLanguage(undefined, null)).toBe('en');
    expect(negotiateLanguage(undefined, undefined)).toBe('en');
    expect(negotiateLanguage('zh-CN, *', null)).toBe('en');
    expect(negotiateLanguage('', '')).toBe('en');
  });

  it('does not accept a candidate with q=0', () => {
    expect(negotiateLanguage('ja;q=0, fr;q=0.1', null)).toBe('fr');
    expect(negotiateLanguage('ja;q=0.000', null)).toBe('en');
    expect(negotiateLanguage('de;q=0', 'ko')).toBe('ko');
  });

  it.each(['ja;q=abc', 'ja;q=2', 'ja;q=1.5', 'ja;q=-1', 'ja;q=0.1234', 'ja;q=', 'ja;q=.5', 'ja;q=1.001'])(
    'ignores a candidate with a malformed q (%s) instead of failing',
    (candidate) => {
      expect(negotiateLanguage(`${candidate}, fr;q=0.1`, null)).toBe('fr');
      expect(negotiateLanguage(candidate, 'ko')).toBe('ko');
    },
  );

  it('accepts well-formed q values at the bounds and with three decimals', () => {
    expect(negotiateLanguage('ja;q=1.000, fr', null)).toBe('ja');
    expect(negotiateLanguage('ja;q=0.001', null)).toBe('ja');
    expect(negotiateLanguage('fr;q=0.501, ja;q=0.5', null)).toBe('fr');
  });

  it('tolerates spaces around tags, separators and parameters, and empty list elements', () => {
    expect(negotiateLanguage(' it , ja ; q = 0.5 , fr ; q=0.4 ', null)).toBe('ja');
    expect(negotiateLanguage(',, ,ko', null)).toBe('ko');
  });

  it('matches tags and the q parameter case-insensitively', () => {
    expect(negotiateLanguage('DE-de', null)).toBe('de');
    expect(negotiateLanguage('ZH-hant', null)).toBe('zh-Hant');
    expect(negotiateLanguage('zh-tw', null)).toBe('zh-Hant');
    expect(negotiateLanguage('PT-br', null)).toBe('pt-BR');
    expect(negotiateLanguage('EN', null)).toBe('en');
    expect(negotiateLanguage('ZH-CN, Es', null)).toBe('es');
    expect(negotiateLanguage('fr;Q=0.2, ja;Q=0.9', null)).toBe('ja');
  });

  it('falls to English when the account setting is not a supported language', () => {
    expect(negotiateLanguage(undefined, 'it')).toBe('en');
    expect(negotiateLanguage('zh-CN', 'zh-Hans')).toBe('en');
    expect(negotiateLanguage(undefined, 'pt')).toBe('en');
  });

  it.each([...SUPPORTED_LANGUAGES])(
    'maps the supported tag %s to itself, as header and as account setting',
    (tag) => {
      expect(negotiateLanguage(tag, null)).toBe(tag);
      expect(negotiateLanguage(`zh-CN, ${tag};q=0.3`, 'en')).toBe(tag);
      expect(negotiateLanguage(undefined, tag)).toBe(tag);
      expect(isSupportedLanguage(tag)).toBe(true);
    },
  );

  it('does not treat other strings as supported languages', () => {
    for (const value of ['', 'EN', 'pt', 'pt-PT', 'zh', 'zh-TW', 'zh-hant', 'it', '*']) {
      expect(isSupportedLanguage(value)).toBe(false);
    }
  });
});
