import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { endpointView, type EndpointView } from '../domain/endpoint-view';

/**
 * GET /console/v1/webhook-endpoints/{id}: one endpoint of the account, without its secret. An unknown id
 * and another account's endpoint are the same 404.
 */
@Injectable()
export class GetEndpointUseCase {
  constructor(private readonly endpoints: EndpointRepository) {}

  async execute(accountId: string, id: string): Promise<EndpointView> {
    const endpoint = await this.endpoints.find(accountId, id);
    if (!endpoint) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return endpointView(endpoint);
  }
}
