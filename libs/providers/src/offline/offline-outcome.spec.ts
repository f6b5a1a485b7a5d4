import { SIMULATE_BEHAVIOURS } from './offline-inputs';
import { offlineOutcome } from './offline-outcome';

describe('offlineOutcome (the simulate and delay_ms test behaviours)', () => {
  it('maps every simulate value to what a runner must do', () => {
    const outcomes = Object.fromEntries(SIMULATE_BEHAVIOURS.map((s) => [s, offlineOutcome({ simulate: s })]));
    expect(outcomes).toEqual({
      success: { kind: 'success', assets: 'ready', delayMs: 0 },
      asset_pending: { kind: 'success', assets: 'pending', delayMs: 0 },
      asset_unavailable: { kind: 'success', assets: 'unavailable', delayMs: 0 },
      upstream_failed: { kind: 'failed', errorCode: 'upstream_failed', charged: false, delayMs: 0 },
      content_rejected: { kind: 'failed', errorCode: 'content_rejected', charged: false, delayMs: 0 },
    });
  });

  it('defaults to success without delay', () => {
    expect(offlineOutcome({})).toEqual({ kind: 'success', assets: 'ready', delayMs: 0 });
  });

  it('carries delay_ms, within 0..600000', () => {
    expect(offlineOutcome({ simulate: 'content_rejected', delay_ms: 500 }).delayMs).toBe(500);
    expect(offlineOutcome({ delay_ms: 600_000 }).delayMs).toBe(600_000);
    expect(() => offlineOutcome({ delay_ms: 600_001 })).toThrow(RangeError);
    expect(() => offlineOutcome({ delay_ms: -1 })).toThrow(RangeError);
  });

  it('rejects an unknown simulate value', () => {
    expect(() => offlineOutcome({ simulate: 'explode' as never })).toThrow(RangeError);
  });
});
