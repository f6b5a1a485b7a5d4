import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { migrate, type Database } from '@gen/persistence';
import { PrivateCidrAllowList, type HostResolver } from '@gen/ssrf';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { endpointSecretKey } from '@gen/webhook-signing';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from '../persistence/webhooks-schema';
import { CreateEndpointUseCase, type CreateEndpointInput } from './create-endpoint.use-case';
import { MAX_ENDPOINTS_PER_ACCOUNT, secretsForSigning } from '../domain/endpoint';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { EndpointUrlPolicy } from '../domain/endpoint-url.policy';
import { GetEndpointUseCase } from './get-endpoint.use-case';
import { ListEndpointsUseCase } from './list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from './rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './update-endpoint.use-case';

/** Host names of the tests; anything else does not resolve. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'other.example.com': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
};
const lookup: HostResolver = async (host) => {
  const addresses = DNS[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const T0 = new Date('2026-11-24T10:00:00.000Z');
const seconds = (n: number) => new Date(T0.getTime() + n * 1000);

/** The error an async call fails with (the test fails when it does not fail). */
async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe.each(DATABASE_KINDS)('webhook endpoint use cases on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let repository: EndpointRepository;
  let now: Date;
  let create: CreateEndpointUseCase;
  let list: ListEndpointsUseCase;
  let get: GetEndpointUseCase;
  let update: UpdateEndpointUseCase;
  let rotate: RotateEndpointSecretUseCase;
  let accounts = 0;
  const newAccount = () => `acc_${kind}_${(accounts += 1)}`;
  const input = (overrides: Partial<CreateEndpointInput> = {}): CreateEndpointInput => ({
    url: 'https://hooks.example.com/webhooks',
    enabledEvents: ['task.completed'],
    ...overrides,
  });

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, WEBHOOKS_SCHEMA);
    repository = new EndpointRepository(database, {} as WebhooksMigrations);
    const clock = { now: () => now };
    const urls = new EndpointUrlPolicy(PrivateCidrAllowList.EMPTY, lookup);
    create = new CreateEndpointUseCase(repository, urls, clock);
    list = new ListEndpointsUseCase(repository);
    get = new GetEndpointUseCase(repository);
    update = new UpdateEndpointUseCase(repository, urls, clock);
    rotate = new RotateEndpointSecretUseCase(repository, clock);
  });
  afterAll(() => test.close());
  beforeEach(() => {
    now = T0;
  });

  it('creates an enabled endpoint and shows its secret once: reading and listing never show it', async () => {
    const account = newAccount();
    const created = await create.execute(account, input({ description: 'production' }));
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: 'https://hooks.example.com/webhooks',
      enabledEvents: ['task.completed'],
      description: 'production',
      enabled: true,
      status: 'enabled',
      disabledReason: null,
      consecutiveFailures: 0,
      createdAt: T0.toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(endpointSecretKey(created.secret)).toHaveLength(32);
    const { secret, ...withoutSecret } = created;
    expect(await get.execute(account, created.id)).toEqual(withoutSecret);
    expect(await list.execute(account)).toEqual({ items: [withoutSecret] });
    expect(JSON.stringify(await list.execute(account))).not.toContain('whsec_');
    // The stored secret is the one shown, and signs alone while nothing was rotated.
    const stored = await repository.find(account, created.id);
    expect(secretsForSigning(stored!, now)).toEqual([secret]);
    // A second endpoint has its own secret; the description defaults to empty; the URL is stored normalised.
    now = seconds(1);
    const second = await create.execute(
      account,
      input({ url: 'HTTPS://Other.Example.COM:443/a/../hook', enabledEvents: ['task.failed'] }),
    );
    expect(second.secret).not.toBe(secret);
    expect(second).toMatchObject({ url: 'https://other.example.com/hook', description: '' });
    expect((await list.execute(account)).items.map((e) => e.id)).toEqual([created.id, second.id]);
  });

  it.each([
    ['plain http', 'http://hooks.example.com/webhooks', 'scheme'],
    ['a loopback literal', 'https://127.0.0.1/webhooks', 'private_address'],
    ['a private literal', 'https://[::ffff:10.0.0.1]/webhooks', 'private_address'],
    ['a host resolving to a private address', 'https://internal.example.com/webhooks', 'private_address'],
    [
      'a host with one private address among public ones',
      'https://mixed.example.com/webhooks',
      'private_address',
    ],
    ['a host that does not resolve', 'https://nowhere.example.com/webhooks', 'unresolvable'],
    ['a port other than 443', 'https://hooks.example.com:8443/webhooks', 'port'],
    ['https on port 80', 'https://hooks.example.com:80/webhooks', 'port'],
    ['credentials', 'https://user:pass@hooks.example.com/webhooks', 'credentials'],
    ['no URL at all', 'hooks.example.com/webhooks', 'malformed'],
  ])('refuses %s with 400 "Invalid callback URL" naming nothing', async (_label, url, reason) => {
    const account = newAccount();
    const error = await failure(create.execute(account, input({ url })));
    expect(error).toMatchObject({ code: BusinessCode.InvalidRequest, messageId: 'callback.invalid' });
    // Only the rule it broke, as a code (the console words it): never the host or an address.
    expect(error.params).toEqual({ reason });
    expect(await list.execute(account)).toEqual({ items: [] });
  });

  it.each([
    ['an unknown name', ['task.created'], 'enabledEvents.0'],
    ['a wildcard', ['task.succeeded', '*'], 'enabledEvents.1'],
    ['a prefix wildcard', ['task.*'], 'enabledEvents.0'],
    ['another case', ['Task.Failed'], 'enabledEvents.0'],
  ])('refuses %s among the event names at save time', async (_label, enabledEvents, field) => {
    const account = newAccount();
    const error = await failure(create.execute(account, input({ enabledEvents })));
    expect(error).toMatchObject({ code: BusinessCode.InvalidRequest, messageId: 'input.not_allowed_value' });
    expect(error.params).toEqual({
      field,
      allowed: 'task.completed, task.succeeded, task.failed, task.canceled, task.expired',
    });
    expect(await list.execute(account)).toEqual({ items: [] });
  });

  it('refuses an empty event list, and keeps each name once', async () => {
    const account = newAccount();
    const error = await failure(create.execute(account, input({ enabledEvents: [] })));
    expect(error).toMatchObject({
      code: BusinessCode.InvalidRequest,
      messageId: 'request.invalid_field',
      params: { field: 'enabledEvents' },
    });
    const created = await create.execute(
      account,
      input({ enabledEvents: ['task.failed', 'task.expired', 'task.failed'] }),
    );
    expect(created.enabledEvents).toEqual(['task.failed', 'task.expired']);
  });

  it('holds at most 16 endpoints per account: the 17th is a 409, other accounts are not affected', async () => {
    const account = newAccount();
    for (let i = 0; i < MAX_ENDPOINTS_PER_ACCOUNT; i += 1)
      await create.execute(account, input({ description: `n${i}` }));
    const error = await failure(create.execute(account, input()));
    expect(error.code).toBe(BusinessCode.Conflict);
    expect(error.params).toMatchObject({ limit: 16 });
    expect((await list.execute(account)).items).toHaveLength(16);
    await expect(create.execute(newAccount(), input())).resolves.toMatchObject({ status: 'enabled' });
  });

  it('never passes the limit when creations race', async () => {
    const account = newAccount();
    const results = await Promise.allSettled(
      Array.from({ length: MAX_ENDPOINTS_PER_ACCOUNT + 4 }, () => create.execute(account, input())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(16);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as DomainError] : []));
    expect(refusals.map((e) => e.code)).toEqual([409, 409, 409, 409]);
    expect((await list.execute(account)).items).toHaveLength(16);
  });

  it('disables with enabled: false, and re-enables with enabled: true whatever disabled it', async () => {
    const account = newAccount();
    const { id } = await create.execute(account, input());
    now = seconds(60);
    expect(await update.execute(account, id, { enabled: false })).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabledReason: 'disabled_by_user',
      consecutiveFailures: 0,
    });
    expect((await repository.find(account, id))!.updatedAt).toEqual(seconds(60));
    // What delivery code does: failures counted, then a 410 disables the endpoint (enabled stays as set).
    await database.query(
      `UPDATE "webhooks"."endpoints" SET "enabled" = true, "status" = 'disabled', "disabled_reason" = 'gone_410',
         "consecutive_failures" = 5 WHERE "id" = $1`,
      [id],
    );
    expect(await update.execute(account, id, { description: 'renamed' })).toMatchObject({
      enabled: true,
      status: 'disabled',
      disabledReason: 'gone_410',
      consecutiveFailures: 5,
      description: 'renamed',
    });
    // Disabling keeps the count; enabling clears reason and count.
    expect(await update.execute(account, id, { enabled: false })).toMatchObject({
      status: 'disabled',
      disabledReason: 'disabled_by_user',
      consecutiveFailures: 5,
    });
    expect(await update.execute(account, id, { enabled: true })).toMatchObject({
      enabled: true,
      status: 'enabled',
      disabledReason: null,
      consecutiveFailures: 0,
    });
  });

  it('changes url, events and description with the checks of creation, and nothing on a refusal', async () => {
    const account = newAccount();
    const created = await create.execute(account, input());
    const { secret: _secret, ...before } = created;
    const changed = await update.execute(account, created.id, {
      url: 'https://other.example.com/v2',
      enabledEvents: ['task.succeeded', 'task.failed'],
      description: 'v2',
    });
    expect(changed).toEqual({
      ...before,
      url: 'https://other.example.com/v2',
      enabledEvents: ['task.succeeded', 'task.failed'],
      description: 'v2',
    });
    for (const refused of [
      { url: 'http://other.example.com/v3' },
      { url: 'https://127.0.0.1/v3' },
      { enabledEvents: ['*'] },
      { enabledEvents: [] },
      { url: 'https://other.example.com/v3', enabledEvents: ['task.*'] },
    ]) {
      expect((await failure(update.execute(account, created.id, refused))).code).toBe(
        BusinessCode.InvalidRequest,
      );
    }
    expect(await get.execute(account, created.id)).toEqual(changed);
    expect(await update.execute(account, created.id, {})).toEqual(changed);
  });

  it('keeps the replaced secret valid for signing until the grace period ends', async () => {
    const account = newAccount();
    const created = await create.execute(account, input());
    now = seconds(100);
    const rotated = await rotate.execute(account, created.id);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(created.secret);
    const { secret: _secret, ...withoutSecret } = rotated;
    expect(await get.execute(account, created.id)).toEqual(withoutSecret);
    const stored = (await repository.find(account, created.id))!;
    expect(stored.secret).toBe(rotated.secret);
    expect(stored.previousSecretExpiresAt).toEqual(seconds(100 + 86_400));
    expect(secretsForSigning(stored, seconds(100))).toEqual([rotated.secret, created.secret]);
    expect(secretsForSigning(stored, seconds(100 + 86_399))).toEqual([rotated.secret, created.secret]);
    expect(secretsForSigning(stored, seconds(100 + 86_400))).toEqual([rotated.secret]);

    // A second rotation within the grace period keeps only the last two secrets.
    now = seconds(200);
    const again = await rotate.execute(account, created.id, 3600);
    const twice = (await repository.find(account, created.id))!;
    expect(secretsForSigning(twice, seconds(200 + 3599))).toEqual([again.secret, rotated.secret]);
    expect(secretsForSigning(twice, seconds(200 + 3600))).toEqual([again.secret]);

    // No grace: the replaced secret stops at once. The maximum is 7 days.
    const none = await rotate.execute(account, created.id, 0);
    const dropped = (await repository.find(account, created.id))!;
    expect(dropped).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
    expect(secretsForSigning(dropped, now)).toEqual([none.secret]);
    await rotate.execute(account, created.id, 604_800);
    expect((await repository.find(account, created.id))!.previousSecretExpiresAt).toEqual(
      seconds(200 + 604_800),
    );
    for (const grace of [-1, 604_801, 1.5]) {
      expect(await failure(rotate.execute(account, created.id, grace))).toMatchObject({
        code: BusinessCode.InvalidRequest,
        params: { field: 'gracePeriodSeconds' },
      });
    }
  });

  it("answers 404 for an unknown id and for another account's endpoint alike", async () => {
    const owner = newAccount();
    const stranger = newAccount();
    const { id, secret } = await create.execute(owner, input());
    for (const attempt of [
      get.execute(stranger, id),
      update.execute(stranger, id, { enabled: false }),
      rotate.execute(stranger, id),
      get.execute(owner, 'whe_01JD000000000000000000000'),
      update.execute(owner, 'whe_01JD000000000000000000000', { description: 'x' }),
      rotate.execute(owner, 'whe_unknown'),
    ]) {
      expect(await failure(attempt)).toMatchObject({
        code: BusinessCode.NotFound,
        messageId: 'request.not_found',
      });
    }
    expect(await list.execute(stranger)).toEqual({ items: [] });
    const untouched = (await repository.find(owner, id))!;
    expect(untouched).toMatchObject({ enabled: true, status: 'enabled', secret, previousSecret: null });
  });
});
