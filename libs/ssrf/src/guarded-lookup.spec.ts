import type { LookupAddress } from 'node:dns';
import {
  BLOCKED_ADDRESS_ERROR_CODE,
  BlockedAddressError,
  createGuardedLookup,
  isBlockedAddressError,
  type GuardedLookupOptions,
} from './guarded-lookup';
import type { HostResolver, ResolvedAddress } from './host-resolver';
import { parseAllowPrivateCidrs } from './private-cidr-allow-list';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const fixed =
  (...answer: ResolvedAddress[]): HostResolver =>
  async () =>
    answer;

interface LookupOutcome {
  readonly error: NodeJS.ErrnoException | null;
  readonly address: string | LookupAddress[];
  readonly family?: number;
}

function runLookup(options: GuardedLookupOptions, lookupOptions: { all?: boolean; family?: number } = {}) {
  const lookup = createGuardedLookup(options);
  return new Promise<LookupOutcome>((resolve) => {
    lookup('receiver.test', lookupOptions, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('createGuardedLookup', () => {
  it('answers with a public address, as one address or all of them', async () => {
    const lookup = fixed(v4('93.184.215.14'), v6('2606:4700:4700::1111'));
    expect(await runLookup({ lookup })).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await runLookup({ lookup }, { all: true })).toEqual({
      error: null,
      address: [v4('93.184.215.14'), v6('2606:4700:4700::1111')],
      family: undefined,
    });
    expect(await runLookup({ lookup }, { family: 6 })).toMatchObject({ address: '2606:4700:4700::1111' });
  });

  it.each([
    ['loopback', [v4('127.0.0.1')]],
    ['metadata', [v4('169.254.169.254')]],
    ['one public and one private', [v4('93.184.215.14'), v4('192.168.0.10')]],
    ['IPv6 loopback', [v6('::1')]],
    ['IPv4-mapped loopback', [v6('::ffff:127.0.0.1')]],
    ['a private address of the family not asked for', [v4('93.184.215.14'), v6('fd00::1')]],
  ])('fails the connection with BlockedAddressError for %s', async (_, answer) => {
    const outcome = await runLookup({ lookup: fixed(...answer) }, { family: 4 });
    expect(outcome.error).toBeInstanceOf(BlockedAddressError);
    expect(outcome.error?.code).toBe(BLOCKED_ADDRESS_ERROR_CODE);
    expect(isBlockedAddressError(outcome.error)).toBe(true);
    expect(outcome.error?.message).not.toMatch(/receiver|127|169|192|fd00|::/);
  });

  it('lets allow-listed addresses through', async () => {
    const allowPrivateCidrs = parseAllowPrivateCidrs('127.0.0.0/8');
    expect(await runLookup({ lookup: fixed(v4('127.0.0.1')), allowPrivateCidrs })).toMatchObject({
      error: null,
      address: '127.0.0.1',
    });
    const outcome = await runLookup({ lookup: fixed(v4('10.0.0.1')), allowPrivateCidrs });
    expect(isBlockedAddressError(outcome.error)).toBe(true);
  });

  it('passes resolver failures through as they are', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
    };
    const outcome = await runLookup({ lookup: failing });
    expect(outcome.error?.code).toBe('ENOTFOUND');
    expect(isBlockedAddressError(outcome.error)).toBe(false);
  });

  it('reports no address of the wanted family as ENOTFOUND', async () => {
    const outcome = await runLookup({ lookup: fixed(v4('93.184.215.14')) }, { family: 6 });
    expect(outcome.error?.code).toBe('ENOTFOUND');
  });
});
