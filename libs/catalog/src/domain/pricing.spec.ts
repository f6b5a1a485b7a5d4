import { groupPrices, groupPricesE9, multiplierE9Of } from './pricing';

describe('group prices', () => {
  const text = {
    perMillionInputTokens: '0.15',
    perMillionCachedInputTokens: '0.075',
    perMillionOutputTokens: '0.6',
  };

  it('leaves standard prices unchanged with multiplier 1 (string or 1e-9 units)', () => {
    expect(groupPrices(text, '1')).toEqual({ currency: 'USD', ...text });
    expect(groupPrices(text, 1_000_000_000n)).toEqual({ currency: 'USD', ...text });
    expect(groupPrices({ perImage: '0.004' })).toEqual({ currency: 'USD', perImage: '0.004' });
  });

  it.each([
    // multiplier, standard, group price; each would be off in binary floating point
    ['0.85', '0.15', '0.1275'], // 0.15 * 0.85 = 0.12749999999999997 as a double
    ['1.1', '0.3', '0.33'], // 0.3 * 1.1 = 0.33000000000000007
    ['1.2', '0.6', '0.72'], // 0.6 * 1.2 = 0.72 (0.7199999999999999)
    ['0.7', '0.1', '0.07'], // 0.1 * 0.7 = 0.06999999999999999
    ['3', '0.1', '0.3'], // 0.1 * 3 = 0.30000000000000004
    ['1.15', '999999999.999999999', '1149999999.999999999'], // beyond 2^53 nano-USD
    ['0.5', '0', '0'],
    ['0', '15', '0'],
  ])('multiplier %s: %s -> %s exactly', (multiplier, standard, expected) => {
    expect(groupPrices({ perSecond: standard }, multiplier).perSecond).toBe(expected);
  });

  it('prices every key of a text model with the multiplier', () => {
    expect(groupPrices(text, '0.85')).toEqual({
      currency: 'USD',
      perMillionInputTokens: '0.1275',
      perMillionCachedInputTokens: '0.06375',
      perMillionOutputTokens: '0.51',
    });
  });

  it('rounds to the nano-USD, halves up', () => {
    expect(groupPrices({ perImage: '0.000000001' }, '0.5').perImage).toBe('0.000000001'); // 0.5 nano: up
    expect(groupPrices({ perImage: '0.000000001' }, '0.499999999').perImage).toBe('0'); // below half: down
    expect(groupPrices({ perImage: '0.000000003' }, '0.5').perImage).toBe('0.000000002'); // 1.5 nano: up
    expect(groupPrices({ perImage: '0.123456789' }, '1.000000001').perImage).toBe('0.123456789'); // +0.12 nano: down
    expect(groupPrices({ perImage: '0.123456789' }, '1.000000005').perImage).toBe('0.12345679'); // +0.62 nano: up
    expect(groupPricesE9({ perImage: '0.000000005' }, '0.3')).toEqual({ perImage: 2n }); // 1.5 nano: up
  });

  it('refuses a multiplier that is not an exact decimal', () => {
    for (const bad of ['-1', '1e3', '0.1234567891', 'abc', '', ' 1']) {
      expect(() => multiplierE9Of(bad)).toThrow(RangeError);
    }
    expect(() => multiplierE9Of(-1n)).toThrow(RangeError);
    expect(multiplierE9Of('0.85')).toBe(850_000_000n);
  });
});

describe('group prices, computed once per pricing and multiplier', () => {
  it('answers the same figures from what it kept, per multiplier, and anew for a changed pricing', () => {
    const pricing = { perMillionInputTokens: '0.15', perMillionOutputTokens: '0.6' };
    const first = groupPricesE9(pricing, '0.85');
    expect(first).toEqual({ perMillionInputTokens: 127_500_000n, perMillionOutputTokens: 510_000_000n });
    expect(groupPricesE9(pricing, '0.85')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Another group, the same multiplier as a bigint, another pricing object: their own figures.
    expect(groupPricesE9(pricing, '1')).toEqual({
      perMillionInputTokens: 150_000_000n,
      perMillionOutputTokens: 600_000_000n,
    });
    expect(groupPricesE9(pricing, 850_000_000n)).toEqual(first);
    expect(groupPricesE9({ ...pricing, perMillionInputTokens: '0.3' }, '0.85')).toEqual({
      perMillionInputTokens: 255_000_000n,
      perMillionOutputTokens: 510_000_000n,
    });
    // A bad multiplier is refused every time, not remembered.
    expect(() => groupPricesE9(pricing, '-1')).toThrow(RangeError);
    expect(() => groupPricesE9(pricing, '-1')).toThrow(RangeError);
  });
});
