import { Injectable } from '@nestjs/common';
import type { HoldView } from '@gen/contracts';
import { toHoldView } from '../domain/hold';
import { HoldsRepository } from '../persistence/holds.repository';

/** The task exists: a `reserved` hold becomes `confirmed` and the sweeper leaves it alone. */
@Injectable()
export class ConfirmHoldUseCase {
  constructor(private readonly holds: HoldsRepository) {}

  async execute(holdId: string): Promise<HoldView | null> {
    const hold = await this.holds.confirm(holdId);
    return hold ? toHoldView(hold) : null;
  }
}
