import { formatMicroUsd, microUsd, readableUsd } from '../app/src/money';

describe('amounts as the console shows them', () => {
  it.each([
    ['24.987373', '24.99'],
    ['25', '25'],
    ['0.10', '0.10'],
    ['12.3', '12.3'],
    ['1.005', '1.01'],
    ['9.995', '10.00'],
    ['0.00999', '0.01'],
    ['0.004', '0.004'],
    ['0.0012345', '0.0012'],
    ['0.000000001', '0.000000001'],
    ['0', '0'],
    ['0.000', '0'],
    ['-2.345', '-2.35'],
    ['123456789012345678.129', '123456789012345678.13'],
  ])('reads %s as %s, digit by digit (no float)', (exact, shown) => {
    expect(readableUsd(exact)).toBe(shown);
  });

  it('leaves what is not a decimal amount as it is', () => {
    expect(readableUsd('n/a')).toBe('n/a');
  });

  it('puts the plot amounts in micro-USD and back', () => {
    expect(microUsd('24.987373')).toBe(24_987_373);
    expect(formatMicroUsd(24_987_373)).toBe('24.987373');
  });
});
