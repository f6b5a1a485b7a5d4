import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { QueryPipe } from '@gen/edge';
import { Type, type Static } from '@sinclair/typebox';
import { DeliveryRepository, type DeliveryRow } from '../persistence/delivery.repository';

export const DeliveriesQuery = Type.Object(
  { taskId: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
type DeliveriesQuery = Static<typeof DeliveriesQuery>;

const viewOf = (d: DeliveryRow) => ({
  deliveryId: d.id,
  taskId: d.taskId,
  accountId: d.accountId,
  url: d.url,
  payloadVersion: d.payloadVersion,
  state: d.state,
  attempts: d.attempts,
  ...(d.nextAttemptAt && d.state === 'pending' ? { nextAttemptAt: d.nextAttemptAt.toISOString() } : {}),
  ...(d.lastOutcome ? { lastOutcome: d.lastOutcome } : {}),
  createdAt: d.createdAt.toISOString(),
  ...(d.deliveredAt ? { deliveredAt: d.deliveredAt.toISOString() } : {}),
});

/** Delivery records of task callbacks, and manual redelivery (admin token). */
@Controller('admin/v1/webhook-deliveries')
export class AdminDeliveriesController {
  constructor(
    private readonly deliveries: DeliveryRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /admin/v1/webhook-deliveries?taskId= : the callback delivery of a task, with its attempts. */
  @Get()
  async list(@Query(new QueryPipe(DeliveriesQuery)) query: DeliveriesQuery) {
    const rows = await this.deliveries.findByTask(query.taskId);
    return {
      items: await Promise.all(
        rows.map(async (d) => ({
          ...viewOf(d),
          attemptLog: (await this.deliveries.attemptsOf(d.id)).map((a) => ({
            n: a.n,
            attemptedAt: a.attemptedAt.toISOString(),
            outcome: a.outcome,
            ...(a.status !== null ? { status: a.status } : {}),
            durationMs: a.durationMs,
          })),
        })),
      ),
    };
  }

  /** POST /admin/v1/webhook-deliveries/{deliveryId}/redeliver : the same delivery (same id) is sent again now. */
  @Post(':deliveryId/redeliver')
  @HttpCode(200)
  async redeliver(@Param('deliveryId') deliveryId: string) {
    const row = await this.deliveries.redeliver(deliveryId, this.clock.now());
    if (!row) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return viewOf(row);
  }
}
