import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, HOLDS_PORT, type ApiKeyPrincipal, type HoldsPort } from '@gen/contracts';
import { CLOCK, DomainError, parseUsd, type Clock } from '@gen/core';
import { QUOTE_VALIDITY_MS, readQuote, signQuote } from '../domain/quote-token';
import { TASKS_OPTIONS, type TasksOptions } from '../domain/task-options';
import { PrepareTaskRequest, type PreparedRequest, type TaskRequest } from '../domain/prepare-task-request';

export interface QuoteView {
  readonly quoteId: string;
  readonly model: string;
  readonly currency: 'USD';
  /** The customer price of this exact request at the account's prices. */
  readonly price: string;
  /** The most the task can be charged: the amount held at acceptance. */
  readonly maxCharge: string;
  readonly expiresAt: string;
}

/**
 * POST /api/v1/jobs/quote: checks the request exactly as createTask would (input, callback URL, funds and the
 * key's daily cap), creates nothing and holds nothing, and signs what it found for five minutes.
 */
@Injectable()
export class QuoteTaskUseCase {
  constructor(
    private readonly requests: PrepareTaskRequest,
    @Inject(HOLDS_PORT) private readonly holds: HoldsPort,
    @Inject(TASKS_OPTIONS) private readonly options: TasksOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(principal: ApiKeyPrincipal, request: TaskRequest): Promise<QuoteView> {
    const prepared = await this.requests.prepare(principal, request);
    // A quote of a request that quotes itself would only confuse: refuse the fields here too.
    if (request.quoteId !== undefined || request.expectedCost !== undefined) {
      throw new DomainError(BusinessCode.InvalidRequest, 'request.unknown_field', {
        field: request.quoteId !== undefined ? 'quoteId' : 'expectedCost',
      });
    }
    await this.holds.check({
      accountId: principal.accountId,
      keyId: principal.keyId,
      model: prepared.model,
      amount: prepared.estimate,
      dailyCap: principal.dailySpendCap,
    });
    const expiresAt = this.clock.now().getTime() + QUOTE_VALIDITY_MS;
    const quoteId = signQuote(
      {
        accountId: principal.accountId,
        keyId: principal.keyId,
        request: prepared.requestHash,
        price: prepared.estimate,
        maxCharge: prepared.estimate,
        expiresAt,
      },
      this.options.quoteKey,
    );
    return {
      quoteId,
      model: prepared.model,
      currency: 'USD',
      price: prepared.estimate,
      maxCharge: prepared.estimate,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }
}

/**
 * createTask and stream with `quoteId` and `expectedCost`: both or neither (400), and the quote must be ours,
 * for this account, key and exact request, unexpired, at the price the caller confirms and that still holds
 * now. Anything else is 40901.
 */
export function checkQuote(
  request: TaskRequest,
  prepared: PreparedRequest,
  principal: ApiKeyPrincipal,
  quoteKey: Buffer,
  now: Date,
): void {
  if (request.quoteId === undefined && request.expectedCost === undefined) return;
  if (request.quoteId === undefined || request.expectedCost === undefined) {
    throw new DomainError(BusinessCode.InvalidRequest, 'quote.incomplete');
  }
  const claims = readQuote(request.quoteId, quoteKey);
  const valid =
    claims !== null &&
    claims.accountId === principal.accountId &&
    claims.keyId === principal.keyId &&
    claims.request === prepared.requestHash &&
    claims.expiresAt > now.getTime() &&
    parseUsd(claims.price) === parseUsd(request.expectedCost) &&
    claims.maxCharge === prepared.estimate;
  if (!valid) throw new DomainError(BusinessCode.QuoteExpiredOrChanged, 'quote.expired_or_changed');
}
