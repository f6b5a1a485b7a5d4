import { DomainError } from '@gen/core';
import { priceMultiplierE9 } from './price-multiplier';

describe('priceMultiplierE9: the multipliers prices can carry', () => {
  it.each([
    ['0.01', 10_000_000n],
    ['0.85', 850_000_000n],
    ['1', 1_000_000_000n],
    ['1.2345', 1_234_500_000n],
    ['100', 100_000_000_000n],
    ['100.0000', 100_000_000_000n],
  ])('takes %s', (multiplier, e9) => {
    expect(priceMultiplierE9(multiplier)).toBe(e9);
  });

  it.each([
    ['0', 'zero: every price 0, every request "Invalid amount"'],
    ['0.000000001', 'so small that prices round to 0'],
    ['0.0099', 'below 0.01'],
    ['100.0001', 'above 100'],
    ['1.23456', 'more than 4 decimal places'],
    ['1.', 'not a decimal'],
    ['-1', 'negative'],
  ])('refuses %s (%s) with 400 naming the range', (multiplier) => {
    let error: unknown;
    try {
      priceMultiplierE9(multiplier);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 400,
      messageId: 'group.invalid_multiplier',
      params: { field: 'multiplier', min: '0.01', max: '100', decimals: 4 },
    });
  });
});
