import { formatUsd, multiplyE9, NANOS_PER_USD, parseUsd, usdForMetrics } from './money';

describe('parseUsd', () => {
  it.each([
    ['0', 0n],
    ['25', 25_000_000_000n],
    ['25.00', 25_000_000_000n],
    ['25.5', 25_500_000_000n],
    ['0.002', 2_000_000n],
    ['0.10', 100_000_000n],
    ['0.000000001', 1n],
    ['1.999999999', 1_999_999_999n],
    ['10', 10_000_000_000n],
    ['100.000000000', 100_000_000_000n],
  ])('parses %j as %s nano-USD', (text, nanos) => {
    expect(parseUsd(text)).toBe(nanos);
  });

  it('accepts the largest value it allows: 15 integer digits and 9 decimals', () => {
    expect(parseUsd('999999999999999.999999999')).toBe(999_999_999_999_999_999_999_999n);
  });

  it('refuses a 16th integer digit', () => {
    expect(parseUsd('1000000000000000')).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['leading zero', '01'],
    ['two zeros', '00'],
    ['leading zero before decimals', '00.5'],
    ['more than 9 decimals', '1.0000000001'],
    ['10 zero decimals', '0.0000000000'],
    ['negative', '-1'],
    ['negative zero', '-0'],
    ['explicit plus sign', '+1'],
    ['exponent', '1e3'],
    ['upper-case exponent', '2.5E-3'],
    ['leading space', ' 1'],
    ['trailing space', '1 '],
    ['inner space', '1 000'],
    ['trailing newline', '1\n'],
    ['trailing dot', '1.'],
    ['leading dot', '.5'],
    ['comma as decimal separator', '1,5'],
    ['two dots', '1.2.3'],
    ['digit separator', '1_000'],
    ['hexadecimal', '0x10'],
    ['Infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['letters', 'abc'],
    ['currency sign', '$5'],
    ['full-width digits', '\uFF11'],
  ])('refuses %s (%j)', (_label, text) => {
    expect(parseUsd(text)).toBeNull();
  });
});

describe('formatUsd', () => {
  it.each([
    [0n, '0'],
    [25_000_000_000n, '25'],
    [2_000_000n, '0.002'],
    [1n, '0.000000001'],
    [25_500_000_000n, '25.5'],
    [10_000_000_000n, '10'],
    [100_000_000_000n, '100'],
    [1_000_000_001n, '1.000000001'],
    [123_456_789_120n, '123.45678912'],
    [999_999_999n, '0.999999999'],
  ])('formats %s nano-USD as %j', (nanos, text) => {
    expect(formatUsd(nanos)).toBe(text);
  });

  it('never writes trailing zeros in the fraction or a lone decimal point', () => {
    for (const nanos of [1n, 10n, 100n, 1_000n, 10_000_000n, 100_000_000n, 1_100_000_000n, 7_000_000_000n]) {
      const text = formatUsd(nanos);
      expect(text).not.toMatch(/\.\d*0$/);
      expect(text).not.toMatch(/\.$/);
    }
  });

  it('formats amounts beyond what a float holds exactly', () => {
    expect(formatUsd(10n ** 30n)).toBe(`1${'0'.repeat(21)}`);
    expect(formatUsd(9_007_199_254_740_993_000_000_123n)).toBe('9007199254740993.000000123');
  });

  it('formats negative amounts with a leading minus', () => {
    expect(formatUsd(-1_500_000_000n)).toBe('-1.5');
    expect(formatUsd(-1n)).toBe('-0.000000001');
    expect(formatUsd(-25_000_000_000n)).toBe('-25');
  });
});

describe('parseUsd and formatUsd round trips', () => {
  it.each(['0', '25', '0.002', '0.000000001', '25.5', '10', '100', '999999999999999.999999999', '1.2345'])(
    'canonical %j survives parse then format unchanged',
    (text) => {
      expect(formatUsd(parseUsd(text)!)).toBe(text);
    },
  );

  it.each([
    ['25.00', '25'],
    ['0.0020', '0.002'],
    ['7.500000000', '7.5'],
    ['0.0', '0'],
  ])('non-canonical %j becomes %j', (text, canonical) => {
    expect(formatUsd(parseUsd(text)!)).toBe(canonical);
  });

  it.each([0n, 1n, 999_999_999n, NANOS_PER_USD, 25_500_000_000n, 999_999_999_999_999_999_999_999n])(
    '%s nano-USD survives format then parse unchanged',
    (nanos) => {
      expect(parseUsd(formatUsd(nanos))).toBe(nanos);
    },
  );
});

describe('multiplyE9', () => {
  it('multiplying by 1.0 returns the amount', () => {
    expect(multiplyE9(25_000_000_000n, 1_000_000_000n)).toBe(25_000_000_000n);
    expect(multiplyE9(1n, 1_000_000_000n)).toBe(1n);
  });

  it('multiplying by 0 or multiplying 0 gives 0', () => {
    expect(multiplyE9(25_000_000_000n, 0n)).toBe(0n);
    expect(multiplyE9(0n, 1_500_000_000n)).toBe(0n);
  });

  it('applies fractional and greater-than-one factors exactly when the result is whole', () => {
    expect(multiplyE9(10n, 1_500_000_000n)).toBe(15n);
    expect(multiplyE9(2_000_000n, 250_000_000n)).toBe(500_000n);
    expect(multiplyE9(3_000_000_000n, 2_000_000_000n)).toBe(6_000_000_000n);
    expect(multiplyE9(1_000n, 1n)).toBe(0n);
    expect(multiplyE9(1_000_000_000n, 1n)).toBe(1n);
  });

  it.each([
    [1n, 500_000_000n, 1n], // 0.5 -> 1
    [1n, 499_999_999n, 0n], // 0.499999999 -> 0
    [1n, 500_000_001n, 1n], // 0.500000001 -> 1
    [3n, 500_000_000n, 2n], // 1.5 -> 2
    [5n, 500_000_000n, 3n], // 2.5 -> 3 (half up, not half to even)
    [7n, 500_000_000n, 4n], // 3.5 -> 4
    [1n, 1_499_999_999n, 1n], // 1.499999999 -> 1
    [1n, 1_500_000_000n, 2n], // 1.5 -> 2
    [3n, 333_333_333n, 1n], // 0.999999999 -> 1
    [10n, 149_999_999n, 1n], // 1.49999999 -> 1
    [10n, 150_000_000n, 2n], // 1.5 -> 2
  ])('rounds %s x %s (1e-9 units) half up to %s', (nanos, factor, expected) => {
    expect(multiplyE9(nanos, factor)).toBe(expected);
  });

  it('keeps full precision for large amounts', () => {
    expect(multiplyE9(10n ** 20n, 3_000_000_000n)).toBe(3n * 10n ** 20n);
    expect(multiplyE9(999_999_999_999_999_999_999_999n, 1_000_000_000n)).toBe(
      999_999_999_999_999_999_999_999n,
    );
    expect(multiplyE9(123_456_789_012_345_678_901n, 1_100_000_000n)).toBe(135_802_467_913_580_246_791n);
  });
});

describe('multiplyE9 on negative amounts (regression)', () => {
  it('rounds half away from zero, symmetric with positive amounts', () => {
    expect(multiplyE9(-12n, 100_000_000n)).toBe(-1n); // -1.2
    expect(multiplyE9(-16n, 100_000_000n)).toBe(-2n); // -1.6
    expect(multiplyE9(-15n, 100_000_000n)).toBe(-2n); // -1.5
    expect(multiplyE9(15n, 100_000_000n)).toBe(2n); // 1.5
  });
});

describe('usdForMetrics', () => {
  it.each([
    [0n, 0],
    [1n, 1e-9],
    [25_500_000_000n, 25.5],
    [2_000_000n, 0.002],
    // 0.1 + 0.2 in floats is 0.30000000000000004; the amount read once is the float nearest to 0.3.
    [300_000_000n, 0.3],
    [8_999_999_999_999_999n, 8999999.999999999],
  ])('reads %s nano-USD as %s USD', (nanos, usd) => {
    expect(usdForMetrics(nanos)).toBe(usd);
  });

  it('is the nearest float to a sum too large for float nano-USD', () => {
    // 2^53 + 1 nano-USD: as a float of nano-USD it would be 2^53; in USD it is the float nearest to it.
    const nanos = 9_007_199_254_740_993n;
    expect(usdForMetrics(nanos)).toBe(9007199.254740993);
    expect(usdForMetrics(-nanos)).toBe(-9007199.254740993);
  });
});
