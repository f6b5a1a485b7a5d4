import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { checkEnabledEvents, enabledState } from '../domain/endpoint';
import { EndpointRepository, type EndpointChanges } from '../persistence/endpoint.repository';
import { EndpointUrlPolicy } from '../domain/endpoint-url.policy';
import { endpointView, type EndpointView } from '../domain/endpoint-view';

export interface UpdateEndpointInput {
  readonly url?: string;
  readonly enabledEvents?: readonly string[];
  readonly description?: string;
  readonly enabled?: boolean;
}

/**
 * PATCH /console/v1/webhook-endpoints/{id}: the fields given change, checked as at creation.
 * `enabled: false` disables the endpoint (`disabled_by_user`); `enabled: true` enables it again whatever
 * disabled it (also a 410), clearing the reason and the failure count. Unknown or another account's: 404.
 */
@Injectable()
export class UpdateEndpointUseCase {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly urls: EndpointUrlPolicy,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(accountId: string, id: string, input: UpdateEndpointInput): Promise<EndpointView> {
    const changes: EndpointChanges = {
      ...(input.enabledEvents !== undefined
        ? { enabledEvents: checkEnabledEvents(input.enabledEvents) }
        : {}),
      ...(input.url !== undefined ? { url: await this.urls.accept(input.url) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { state: enabledState(input.enabled) } : {}),
    };
    const updated = await this.endpoints.update(accountId, id, changes, this.clock.now());
    if (!updated) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return endpointView(updated);
  }
}
