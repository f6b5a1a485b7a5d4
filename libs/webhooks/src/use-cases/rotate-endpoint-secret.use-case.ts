import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, invalidField, type Clock } from '@gen/core';
import { generateEndpointSecret } from '@gen/webhook-signing';
import { DEFAULT_GRACE_PERIOD_SECONDS, MAX_GRACE_PERIOD_SECONDS } from '../domain/endpoint';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { endpointWithSecretView, type EndpointWithSecretView } from '../domain/endpoint-view';

/**
 * POST /console/v1/webhook-endpoints/{id}/rotate-secret: a new secret, shown once. The replaced one keeps
 * signing deliveries beside it until the grace period ends (default 86400 seconds, at most 7 days; 0 drops it
 * at once). A rotation during a grace period replaces the previous secret: only the last two are kept.
 */
@Injectable()
export class RotateEndpointSecretUseCase {
  constructor(
    private readonly endpoints: EndpointRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(
    accountId: string,
    id: string,
    gracePeriodSeconds: number = DEFAULT_GRACE_PERIOD_SECONDS,
  ): Promise<EndpointWithSecretView> {
    if (
      !Number.isInteger(gracePeriodSeconds) ||
      gracePeriodSeconds < 0 ||
      gracePeriodSeconds > MAX_GRACE_PERIOD_SECONDS
    ) {
      throw invalidField('gracePeriodSeconds');
    }
    const now = this.clock.now();
    const previousExpiresAt =
      gracePeriodSeconds === 0 ? null : new Date(now.getTime() + gracePeriodSeconds * 1000);
    const rotated = await this.endpoints.rotateSecret(
      accountId,
      id,
      generateEndpointSecret(),
      previousExpiresAt,
      now,
    );
    if (!rotated) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return endpointWithSecretView(rotated);
  }
}
