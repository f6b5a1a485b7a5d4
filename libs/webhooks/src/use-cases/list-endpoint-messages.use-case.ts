import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { attemptView, messageView } from '../http/delivery.dto';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { MessageRepository } from '../persistence/message.repository';

/**
 * GET /console/v1/webhook-endpoints/{id}/messages: the endpoint's latest messages, newest first, each with
 * its attempts. Another account's endpoint is the same 404 as an unknown one.
 */
@Injectable()
export class ListEndpointMessagesUseCase {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute(accountId: string, endpointId: string, limit: number) {
    if (!(await this.endpoints.find(accountId, endpointId)))
      throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    const messages = await this.messages.recentForEndpoint(accountId, endpointId, limit);
    return {
      items: await Promise.all(
        messages.map(async (m) => ({
          ...messageView(m),
          attemptLog: (await this.messages.attemptsOf(m.id)).map(attemptView),
        })),
      ),
    };
  }
}
