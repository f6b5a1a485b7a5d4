import {
  boundedInteger,
  OFFLINE_LIMITS,
  SIMULATE_BEHAVIOURS,
  type TestBehaviourInput,
} from './offline-inputs';

/**
 * `errorCode` of a failed task. `upstream_failed` is the spec's example (Task record); `content_rejected` is
 * the spec's code for a content-policy refusal (Errors, chat-style codes), reused for tasks.
 */
export type OfflineErrorCode = 'upstream_failed' | 'content_rejected';

/**
 * What happens to the files of a succeeded task, in the spec's words (Task record, Asset):
 * - `ready`: stored; the asset carries a signed `url`; charged by usage.
 * - `pending`: stored, but the asset is `pending: true` with no `url` ("the task is succeeded but the URL is
 *   absent"). The file exists, so it is charged by usage. The offline model never makes it ready.
 * - `unavailable`: not stored; the asset is `unavailable: true` with no `url`, and since no file was stored
 *   the cost is 0 (spec, Callbacks rule 5: "If no file was stored, cost is 0").
 */
export type OfflineAssetState = 'ready' | 'pending' | 'unavailable';

/**
 * What a runner must do for an offline media task: wait `delayMs` first (through its injected sleep), then
 * either generate the files and succeed with the given asset state, or fail with `errorCode`.
 * Failures are never charged: the hold is released (cost 0). The spec lets content refusals be charged only
 * where the model page discloses it, and no offline model's page does.
 */
export type OfflineOutcome =
  | { readonly kind: 'success'; readonly assets: OfflineAssetState; readonly delayMs: number }
  | {
      readonly kind: 'failed';
      readonly errorCode: OfflineErrorCode;
      readonly charged: false;
      readonly delayMs: number;
    };

export function offlineOutcome(input: TestBehaviourInput): OfflineOutcome {
  const delayMs = boundedInteger('delay_ms', input.delay_ms, OFFLINE_LIMITS.delayMs);
  const simulate = input.simulate ?? 'success';
  if (!SIMULATE_BEHAVIOURS.includes(simulate)) throw new RangeError(`unknown simulate "${simulate}"`);
  switch (simulate) {
    case 'success':
      return { kind: 'success', assets: 'ready', delayMs };
    case 'asset_pending':
      return { kind: 'success', assets: 'pending', delayMs };
    case 'asset_unavailable':
      return { kind: 'success', assets: 'unavailable', delayMs };
    case 'upstream_failed':
    case 'content_rejected':
      return { kind: 'failed', errorCode: simulate, charged: false, delayMs };
  }
}
