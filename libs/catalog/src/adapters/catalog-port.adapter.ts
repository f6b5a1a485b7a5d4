import { Injectable } from '@nestjs/common';
import {
  BusinessCode,
  chatImageUrlProblem,
  chatImagesOf,
  type CatalogPort,
  type ChatModelView,
  type ExecutionUsage,
  type PreparedTask,
} from '@gen/contracts';
import { DomainError, formatUsd, lazyField } from '@gen/core';
import { chatFieldsNotSent, isOfflineMediaModel, offlineUsageBound } from '@gen/providers';
import { CatalogService } from '../persistence/catalog.service';
import { groupPricesE9 } from '../domain/pricing';
import { chargeOfUsageE9 } from '../domain/usage-charge';
import { usageOfBound } from '../domain/usage-bound';
import { textUsageBound } from '../domain/text-usage-bound';
import { mediaInputsOf } from '../domain/media-fields';

/** Retry-After of a task refused while its model's circuits are open: about when a breaker lets a probe through. */
export const TRIPPED_RETRY_AFTER_SECONDS = 30;

/**
 * The catalog's side of task acceptance (CATALOG_PORT): the model must exist and be enabled (else 404, as an
 * unknown id), the input must pass its schema (400 naming the field), and the model must be available and
 * runnable here (else 503). The estimate is the request's usage bound at the account's prices.
 */
@Injectable()
export class CatalogPortAdapter implements CatalogPort {
  constructor(private readonly catalog: CatalogService) {}

  prepareTask(modelId: string, input: unknown, priceMultiplier: string): PreparedTask {
    const model = this.catalog.resolve(modelId);
    if (!model.enabled) throw new DomainError(BusinessCode.NotFound, 'model.not_found', { model: modelId });
    const validated = this.catalog.validateInput(model.id, input);
    // The runner executes every model while one of its bindings is usable.
    if (this.catalog.isTrippedOnly(model)) {
      // Its upstreams fail now (breakers open): temporary, the client may retry (spec: 50301 is retried).
      throw new DomainError(
        BusinessCode.TemporarilyUnavailable,
        'model.unavailable',
        { model: model.id },
        { 'retry-after': String(TRIPPED_RETRY_AFTER_SECONDS) },
      );
    }
    if (!this.catalog.isAvailable(model)) {
      throw new DomainError(BusinessCode.Unavailable, 'model.unavailable', { model: model.id });
    }
    const images = model.modality === 'text' ? chatImagesOf(validated.input) : [];
    for (const image of images) {
      const reason = chatImageUrlProblem(image.url);
      if (reason) {
        throw new DomainError(BusinessCode.InvalidRequest, 'input.image_url_invalid', {
          field: `input.${image.path}`,
          reason,
        });
      }
    }
    const bound =
      model.modality === 'text'
        ? textUsageBound(validated.input)
        : isOfflineMediaModel(model.id)
          ? offlineUsageBound(model.id, validated.input)
          : usageOfBound(model.usageBound ?? {}, validated.input, model.inputSchema);
    const estimate = chargeOfUsageE9(groupPricesE9(model.pricing, priceMultiplier), bound);
    const prepared = {
      model: model.id,
      modality: model.modality,
      input: validated.input,
      estimate: formatUsd(estimate),
      mediaInputs: [
        ...mediaInputsOf(model.mediaFields, validated.input),
        // A conversation's images of the caller's own files are checked like media fields.
        ...images.flatMap(({ path, url }) =>
          url.startsWith('service://') ? [{ field: path, kind: 'image' as const, value: url }] : [],
        ),
      ],
    };
    return lazyField(prepared, 'fingerprint', () => validated.fingerprint);
  }

  chargeFor(modelId: string, usage: ExecutionUsage, priceMultiplier: string): string {
    const model = this.catalog.resolve(modelId);
    return formatUsd(chargeOfUsageE9(groupPricesE9(model.pricing, priceMultiplier), usage));
  }

  chatModel(idOrAlias: string): ChatModelView | null {
    const model = this.catalog.find(idOrAlias);
    if (!model || !model.enabled) return null;
    return {
      id: model.id,
      modality: model.modality,
      ...(model.text
        ? {
            text: {
              ...(model.text as Omit<NonNullable<ChatModelView['text']>, 'notSent'>),
              notSent: chatFieldsNotSent([model.binding, ...model.fallbacks].map((b) => b.adapter)),
            },
          }
        : {}),
    };
  }

  closestChatModel(wanted: string): string | null {
    let best: { id: string; distance: number } | null = null;
    for (const model of this.catalog.list({ modality: 'text' })) {
      if (!model.available) continue;
      const distance = editDistance(wanted.toLowerCase(), model.model.toLowerCase());
      if (!best || distance < best.distance) best = { id: model.model, distance };
    }
    return best?.id ?? null;
  }

  resolveModelId(idOrAlias: string): string | null {
    try {
      return this.catalog.resolve(idOrAlias).id;
    } catch {
      return null;
    }
  }
}

/** Levenshtein distance, for naming the closest model id (ids are short: the quadratic cost is nothing). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
