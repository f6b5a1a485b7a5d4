import {
  FUNDS_PORT,
  HOLDS_PORT,
  KEY_SPEND_PORT,
  type KeySpendPort,
  type AddCreditCommand,
  type FundingKind,
  type FundsPort,
  type HoldsPort,
} from '@gen/contracts';
import { portContract } from '../port-contract';
import {
  WireFormatError,
  bigintFromWire,
  bigintToWire,
  dateFromWire,
  dateToWire,
  objectFromWire,
} from './wire-values';

/** A hold is on the path of createTask: long enough for a busy database, short enough for a client. */
export const HOLDS_TIMEOUT_MS = 5000;
export const FUNDS_TIMEOUT_MS = 5000;

/** HOLDS_PORT (answered by the billing app): amounts are USD decimal strings already, JSON-safe as they are. */
export const HOLDS_CONTRACT = portContract<HoldsPort>({
  token: HOLDS_PORT,
  service: 'billing',
  port: 'holds',
  methods: {
    reserve: { timeoutMs: HOLDS_TIMEOUT_MS },
    check: { timeoutMs: HOLDS_TIMEOUT_MS },
    confirm: { timeoutMs: HOLDS_TIMEOUT_MS },
    settle: { timeoutMs: HOLDS_TIMEOUT_MS },
    release: { timeoutMs: HOLDS_TIMEOUT_MS },
  },
});

/** `AddCreditCommand` on the wire: nano-USD as decimal digits, the expiry as ISO 8601. */
interface AddCreditWire {
  readonly accountId: string;
  readonly kind: FundingKind;
  readonly amountE9: string;
  readonly model?: string;
  readonly expiresAt?: string;
}

const FUNDING_KINDS: readonly unknown[] = ['wallet', 'promo', 'grant'] satisfies FundingKind[];

function commandFromWire(wire: unknown): AddCreditCommand {
  const fields = objectFromWire(wire, 'the credit command');
  const { accountId, kind, model, expiresAt } = fields;
  if (typeof accountId !== 'string' || !FUNDING_KINDS.includes(kind)) {
    throw new WireFormatError('the credit command');
  }
  return {
    accountId,
    kind: kind as FundingKind,
    amountE9: bigintFromWire(fields['amountE9'], 'the credit amount'),
    ...(typeof model === 'string' ? { model } : {}),
    ...(expiresAt !== undefined ? { expiresAt: dateFromWire(expiresAt, 'the credit expiry') } : {}),
  };
}

/** FUNDS_PORT (answered by the billing app): bigint nano-USD and the Date of an expiry need a codec. */
export const FUNDS_CONTRACT = portContract<FundsPort>({
  token: FUNDS_PORT,
  service: 'billing',
  port: 'funds',
  methods: {
    addCredit: {
      timeoutMs: FUNDS_TIMEOUT_MS,
      encodeArgs: ([command]) => {
        const wire: AddCreditWire = {
          accountId: command.accountId,
          kind: command.kind,
          amountE9: bigintToWire(command.amountE9),
          ...(command.model !== undefined ? { model: command.model } : {}),
          ...(command.expiresAt !== undefined ? { expiresAt: dateToWire(command.expiresAt) } : {}),
        };
        return [wire];
      },
      decodeArgs: ([wire]) => [commandFromWire(wire)],
      encodeResult: ({ availableE9 }) => ({ availableE9: bigintToWire(availableE9) }),
      decodeResult: (wire) => ({
        availableE9: bigintFromWire(objectFromWire(wire, 'the balance')['availableE9'], 'the balance'),
      }),
    },
  },
});

/** A console page load waits for it. */
export const KEY_SPEND_TIMEOUT_MS = 2000;

/** KEY_SPEND_PORT (answered by the billing app): key ids in, USD decimal strings out, JSON-safe as they are. */
export const KEY_SPEND_CONTRACT = portContract<KeySpendPort>({
  token: KEY_SPEND_PORT,
  service: 'billing',
  port: 'keySpend',
  methods: { spentToday: { timeoutMs: KEY_SPEND_TIMEOUT_MS } },
});
