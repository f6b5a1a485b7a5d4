import { Injectable } from '@nestjs/common';
import { BusinessCode, type CatalogPort, type ExecutionUsage, type PreparedTask } from '@gen/contracts';
import { DomainError, formatUsd } from '@gen/core';
import { isOfflineMediaModel, offlineUsageBound } from '@gen/providers';
import { CatalogService } from '../persistence/catalog.service';
import { groupPricesE9 } from '../domain/pricing';
import { chargeOfUsageE9 } from '../domain/usage-charge';
import { usageOfBound } from '../domain/usage-bound';
import { textUsageBound } from '../domain/text-usage-bound';

/** Retry-After of a task refused while its model's circuits are open: about when a breaker lets a probe through. */
export const TRIPPED_RETRY_AFTER_SECONDS = 30;

/**
 * The catalog's side of task acceptance (CATALOG_PORT): the model must exist and be enabled (else 404, as an
 * unknown id), the input must pass its schema (400 naming the field), and the model must be available and
 * runnable here (else 503). The estimate is the request's usage bound at the account's prices.
 */
@Injectable()
export class TaskPricingService implements CatalogPort {
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
    const bound =
      model.modality === 'text'
        ? textUsageBound(validated.input)
        : isOfflineMediaModel(model.id)
          ? offlineUsageBound(model.id, validated.input)
          : usageOfBound(model.usageBound ?? {}, validated.input, model.inputSchema);
    const estimate = chargeOfUsageE9(groupPricesE9(model.pricing, priceMultiplier), bound);
    return {
      model: model.id,
      modality: model.modality,
      input: validated.input,
      fingerprint: validated.fingerprint,
      estimate: formatUsd(estimate),
    };
  }

  chargeFor(modelId: string, usage: ExecutionUsage, priceMultiplier: string): string {
    const model = this.catalog.resolve(modelId);
    return formatUsd(chargeOfUsageE9(groupPricesE9(model.pricing, priceMultiplier), usage));
  }

  resolveModelId(idOrAlias: string): string | null {
    try {
      return this.catalog.resolve(idOrAlias).id;
    } catch {
      return null;
    }
  }
}
