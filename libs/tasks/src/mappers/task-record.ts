import type { ExecutionAsset, ExecutionText } from '@gen/contracts';
import { formatUsd, taskErrorMessage, type Language } from '@gen/core';
import type { ObjectStorage } from '@gen/storage';
import { isTerminal } from '../domain/task-state';
import { SIGNED_URL_SECONDS } from '../domain/task-options';
import { isPurgedAt, retainedUntil } from '../domain/task-retention';
import type { TaskRow } from '../persistence/task-row';

/** An element of `output.assets` (spec: Asset). */
export interface AssetView {
  readonly key: string;
  readonly mime: string;
  readonly url?: string;
  readonly expiresAt?: string;
  readonly width?: number;
  readonly height?: number;
  readonly bytes?: number;
  readonly durationSeconds?: number;
  readonly pending?: true;
  readonly unavailable?: true;
}

/**
 * The answer of a text task in its record (the spec leaves it open): the text, the assistant message as the
 * chat protocols carry it (with `tool_calls` and `reasoning_content` when there are), the token usage
 * (prompt tokens include cached ones, completion tokens include reasoning ones) and the finish reason.
 */
export interface TextOutputView {
  readonly text: string;
  readonly message: {
    readonly role: 'assistant';
    readonly content: string | null;
    readonly reasoning_content?: string;
    /** Signed reasoning blocks (Anthropic): sent back unchanged in the next turn's assistant message. */
    readonly thinking_blocks?: NonNullable<ExecutionText['thinkingBlocks']>;
    readonly tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  };
  readonly usage: {
    readonly prompt_tokens: number;
    readonly cached_tokens: number;
    readonly completion_tokens: number;
    readonly reasoning_tokens: number;
  };
  readonly finishReason: string;
}

/** The text part of `output` of a succeeded text task; nothing for media tasks, nor once purged. */
export function textOutputOf(task: TaskRow): Partial<TextOutputView> {
  const answer = task.textOutput;
  if (!answer) return {};
  const usage = task.usage ?? {};
  const calls = answer.toolCalls ?? [];
  return {
    text: answer.content,
    message: {
      role: 'assistant',
      content: calls.length > 0 && answer.content === '' ? null : answer.content,
      ...(answer.reasoning ? { reasoning_content: answer.reasoning } : {}),
      ...(answer.thinkingBlocks?.length ? { thinking_blocks: answer.thinkingBlocks } : {}),
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    },
    usage: {
      prompt_tokens: (usage.inputTokens ?? 0) + (usage.cachedInputTokens ?? 0),
      cached_tokens: usage.cachedInputTokens ?? 0,
      completion_tokens: usage.outputTokens ?? 0,
      reasoning_tokens: usage.reasoningTokens ?? 0,
    },
    finishReason: answer.finishReason,
  };
}

/** The task record (spec: Task record), the data of recordInfo and of version 2 callbacks. */
export interface TaskRecordView {
  readonly taskId: string;
  readonly model: string;
  readonly state: string;
  readonly input?: Record<string, unknown>;
  readonly output?: { readonly assets: AssetView[] } & Partial<TextOutputView>;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly cost: string;
  readonly settled: boolean;
  readonly estimatedCost: string;
  readonly createdAt: string;
  readonly deadlineAt: string;
  readonly completedAt?: string;
  readonly sourceTaskId?: string;
  /** Present once the task's outputs and prompt were destroyed (purge or end of retention). */
  readonly purgedAt?: string;
}

/**
 * `cost` (spec): final once `settled`; until then a failed, expired or canceled task reports "0" (its hold is
 * released) and an in-flight or succeeded task the estimate, which is the ceiling of its charge.
 */
export function costOf(task: TaskRow): string {
  if (task.settled) return formatUsd(task.costE9 ?? 0n);
  if (task.state === 'failed' || task.state === 'expired' || task.state === 'canceled') return '0';
  return formatUsd(task.estimatedE9);
}

/** Builds the record, signing a fresh URL for every stored asset while the task is retained. */
export async function taskRecordOf(
  task: TaskRow,
  context: { language: Language; storage: ObjectStorage; now: Date },
): Promise<TaskRecordView> {
  const until = retainedUntil(task);
  const gone = isPurgedAt(task, context.now);
  const record: TaskRecordView = {
    taskId: task.id,
    model: task.model,
    state: task.state,
    ...(task.input && !gone ? { input: task.input } : {}),
    ...(task.state === 'succeeded'
      ? { output: { assets: await assetsOf(task, gone, until, context), ...textOutputOf(task) } }
      : {}),
    ...(task.state === 'failed' && task.errorCode
      ? {
          errorCode: task.errorCode,
          errorMessage: taskErrorMessage(context.language, task.errorCode),
        }
      : {}),
    cost: costOf(task),
    settled: task.settled,
    estimatedCost: formatUsd(task.estimatedE9),
    createdAt: task.createdAt.toISOString(),
    deadlineAt: task.deadlineAt.toISOString(),
    ...(isTerminal(task.state) && task.completedAt ? { completedAt: task.completedAt.toISOString() } : {}),
    ...(task.sourceTaskId ? { sourceTaskId: task.sourceTaskId } : {}),
    ...(gone && task.completedAt ? { purgedAt: (task.purgedAt ?? until!).toISOString() } : {}),
  };
  return record;
}

/** What every view of an asset shows: its key, type and measures (never its storage status as such). */
function assetFactsOf(asset: ExecutionAsset): AssetView {
  return {
    key: asset.key,
    mime: asset.mime,
    ...(asset.width !== undefined ? { width: asset.width } : {}),
    ...(asset.height !== undefined ? { height: asset.height } : {}),
    ...(asset.bytes !== undefined ? { bytes: asset.bytes } : {}),
    ...(asset.durationSeconds !== undefined ? { durationSeconds: asset.durationSeconds } : {}),
  };
}

async function assetsOf(
  task: TaskRow,
  gone: boolean,
  until: Date | null,
  context: { storage: ObjectStorage; now: Date },
): Promise<AssetView[]> {
  const remaining = until ? Math.floor((until.getTime() - context.now.getTime()) / 1000) : SIGNED_URL_SECONDS;
  const lifetime = Math.max(1, Math.min(SIGNED_URL_SECONDS, remaining));
  return Promise.all(
    (task.assets ?? []).map(async (asset): Promise<AssetView> => {
      const facts = assetFactsOf(asset);
      if (gone || asset.status === 'unavailable') return { ...facts, unavailable: true };
      if (asset.status === 'pending') return { ...facts, pending: true };
      const signed = await context.storage.presignGet({ key: asset.key, expiresInSeconds: lifetime });
      return { ...facts, url: signed.url, expiresAt: signed.expiresAt.toISOString() };
    }),
  );
}

/**
 * The record as a terminal event carries it (`record` of task.succeeded / failed / expired): what recordInfo
 * would show, without what each delivery makes itself: signed asset URLs and the localized errorMessage.
 */
export function taskSnapshotOf(task: TaskRow): Record<string, unknown> {
  return {
    taskId: task.id,
    model: task.model,
    state: task.state,
    ...(task.input ? { input: task.input } : {}),
    ...(task.state === 'succeeded'
      ? {
          output: {
            assets: (task.assets ?? []).map((asset) => ({
              ...assetFactsOf(asset),
              ...(asset.status === 'pending' ? { pending: true } : {}),
              ...(asset.status === 'unavailable' ? { unavailable: true } : {}),
            })),
            ...textOutputOf(task),
          },
        }
      : {}),
    ...(task.state === 'failed' && task.errorCode ? { errorCode: task.errorCode } : {}),
    cost: costOf(task),
    settled: task.settled,
    estimatedCost: formatUsd(task.estimatedE9),
    createdAt: task.createdAt.toISOString(),
    deadlineAt: task.deadlineAt.toISOString(),
    ...(task.completedAt ? { completedAt: task.completedAt.toISOString() } : {}),
    ...(task.sourceTaskId ? { sourceTaskId: task.sourceTaskId } : {}),
  };
}
