import { chargeOfUsageE9 } from './usage-charge';

describe('chargeOfUsageE9', () => {
  it('charges images, pixels, milliseconds and tokens exactly', () => {
    expect(chargeOfUsageE9({ perImage: 4_000_000n }, { images: 3 })).toBe(12_000_000n);
    // 0.01 USD per megapixel x 512 x 512 px = 0.00262144 USD
    expect(chargeOfUsageE9({ perMegapixel: 10_000_000n }, { pixels: 512 * 512 })).toBe(2_621_440n);
    // 0.0005 USD per second x 1.25 s
    expect(chargeOfUsageE9({ perSecond: 500_000n }, { milliseconds: 1250 })).toBe(625_000n);
    // 0.5 / 1.5 USD per million input / output tokens
    expect(
      chargeOfUsageE9(
        { perMillionInputTokens: 500_000_000n, perMillionOutputTokens: 1_500_000_000n },
        { inputTokens: 1000, outputTokens: 2000 },
      ),
    ).toBe(3_500_000n);
  });

  it('rounds the total once, halves up', () => {
    // 1 nano-USD per megapixel x 500,000 px = 0.5 nano-USD -> 1
    expect(chargeOfUsageE9({ perMegapixel: 1n }, { pixels: 500_000 })).toBe(1n);
    expect(chargeOfUsageE9({ perMegapixel: 1n }, { pixels: 499_999 })).toBe(0n);
    // two half-units summed before rounding: 0.5 + 0.5 = 1, not 1 + 1
    expect(
      chargeOfUsageE9(
        { perMillionInputTokens: 1n, perMillionOutputTokens: 1n },
        { inputTokens: 500_000, outputTokens: 500_000 },
      ),
    ).toBe(1n);
  });

  it('ignores usage that has no price and refuses fractional units', () => {
    expect(chargeOfUsageE9({ perImage: 5n }, { milliseconds: 1000 })).toBe(0n);
    expect(() => chargeOfUsageE9({ perImage: 5n }, { images: 1.5 })).toThrow(RangeError);
  });
});
