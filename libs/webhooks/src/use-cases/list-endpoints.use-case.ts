import { Injectable } from '@nestjs/common';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { endpointView, type EndpointView } from '../domain/endpoint-view';

/** GET /console/v1/webhook-endpoints: the account's endpoints, oldest first, without their secrets. */
@Injectable()
export class ListEndpointsUseCase {
  constructor(private readonly endpoints: EndpointRepository) {}

  async execute(accountId: string): Promise<{ items: EndpointView[] }> {
    return { items: (await this.endpoints.list(accountId)).map(endpointView) };
  }
}
