import { Injectable } from '@nestjs/common';
import type { FinishHoldOptions, FundsCheck, HoldView, HoldsPort, ReserveHoldCommand } from '@gen/contracts';
import { CheckFundsUseCase } from '../use-cases/check-funds.use-case';
import { ConfirmHoldUseCase } from '../use-cases/confirm-hold.use-case';
import { ReleaseHoldUseCase } from '../use-cases/release-hold.use-case';
import { ReserveHoldUseCase } from '../use-cases/reserve-hold.use-case';
import { SettleHoldUseCase } from '../use-cases/settle-hold.use-case';

/** HOLDS_PORT: the holds use cases behind the port the tasks domain calls. */
@Injectable()
export class HoldsPortAdapter implements HoldsPort {
  constructor(
    private readonly reserveHold: ReserveHoldUseCase,
    private readonly checkFunds: CheckFundsUseCase,
    private readonly confirmHold: ConfirmHoldUseCase,
    private readonly settleHold: SettleHoldUseCase,
    private readonly releaseHold: ReleaseHoldUseCase,
  ) {}

  reserve(command: ReserveHoldCommand): Promise<HoldView> {
    return this.reserveHold.execute(command);
  }

  check(command: FundsCheck): Promise<void> {
    return this.checkFunds.execute(command);
  }

  confirm(holdId: string): Promise<HoldView | null> {
    return this.confirmHold.execute(holdId);
  }

  settle(holdId: string, charge: string, options: FinishHoldOptions = {}): Promise<HoldView | null> {
    return this.settleHold.execute(holdId, charge, undefined, options.quiet === true);
  }

  async release(holdId: string, options: FinishHoldOptions = {}): Promise<HoldView | null> {
    return (await this.releaseHold.execute(holdId, { quiet: options.quiet === true }))?.view ?? null;
  }
}
