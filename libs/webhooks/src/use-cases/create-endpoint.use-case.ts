import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix } from '@gen/contracts';
import { CLOCK, DomainError, newId, type Clock } from '@gen/core';
import { generateEndpointSecret } from '@gen/webhook-signing';
import { checkEnabledEvents, ENDPOINT_LIMIT_MESSAGE, MAX_ENDPOINTS_PER_ACCOUNT } from '../domain/endpoint';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { EndpointUrlPolicy } from '../domain/endpoint-url.policy';
import { endpointWithSecretView, type EndpointWithSecretView } from '../domain/endpoint-view';

export interface CreateEndpointInput {
  readonly url: string;
  readonly enabledEvents: readonly string[];
  readonly description?: string;
}

/**
 * POST /console/v1/webhook-endpoints: registers an endpoint of the session's account, enabled, with a new
 * `whsec_` secret that this answer shows once. The 17th endpoint of an account is a 409.
 */
@Injectable()
export class CreateEndpointUseCase {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly urls: EndpointUrlPolicy,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(accountId: string, input: CreateEndpointInput): Promise<EndpointWithSecretView> {
    const enabledEvents = checkEnabledEvents(input.enabledEvents);
    const url = await this.urls.accept(input.url);
    const now = this.clock.now();
    const created = await this.endpoints.createWithinLimit(
      {
        id: newId(IdPrefix.webhookEndpoint, now.getTime()),
        accountId,
        url,
        description: input.description ?? '',
        enabledEvents,
        secret: generateEndpointSecret(),
        now,
      },
      MAX_ENDPOINTS_PER_ACCOUNT,
    );
    if (!created) {
      throw new DomainError(BusinessCode.Conflict, ENDPOINT_LIMIT_MESSAGE, {
        field: 'url',
        limit: MAX_ENDPOINTS_PER_ACCOUNT,
      });
    }
    return endpointWithSecretView(created);
  }
}
