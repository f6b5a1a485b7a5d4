import { hashSecret } from '@gen/core';
import { csrfTokenOf } from '../domain/credentials';
import type { AccountsRepository } from '../persistence/accounts.repository';
import { CONSOLE_SESSION_TTL_MS, ConsoleSessionsUseCase } from './console-sessions.use-case';

/** An in-memory stand-in for the two repository calls the use case makes. */
function fakeRepository() {
  const sessions = new Map<
    string,
    { id: string; accountId: string; expiresAt: Date; revokedAt: Date | null; csrfHash: string | null }
  >();
  const repository = {
    findAccount: async (id: string) => (id === 'acc_1' ? { id, language: 'ja' } : null),
    createConsoleSession: async (row: {
      id: string;
      accountId: string;
      tokenHash: string;
      expiresAt: Date;
      csrfHash?: string | null;
    }) => {
      sessions.set(row.tokenHash, {
        id: row.id,
        accountId: row.accountId,
        expiresAt: row.expiresAt,
        revokedAt: null,
        csrfHash: row.csrfHash ?? null,
      });
    },
    findConsoleSession: async (tokenHash: string) => {
      const s = sessions.get(tokenHash);
      return s ? { ...s, account: { language: 'ja' } } : null;
    },
  };
  return { sessions, repository: repository as unknown as AccountsRepository };
}

describe('ConsoleSessionsUseCase', () => {
  let now = new Date('2026-11-23T00:00:00Z');
  const clock = { now: () => now };

  it('issues a token shown once, stores only its hash, and verifies it until it expires', async () => {
    const { sessions, repository } = fakeRepository();
    const useCase = new ConsoleSessionsUseCase(repository, clock);
    const { token, expiresAt } = await useCase.create('acc_1');
    expect(token).toMatch(/^gcs_[0-9A-Za-z]{43}$/);
    expect(expiresAt).toBe(new Date(now.getTime() + CONSOLE_SESSION_TTL_MS).toISOString());
    expect([...sessions.keys()]).toEqual([hashSecret(token)]);
    expect(await useCase.verify(token)).toEqual({
      accountId: 'acc_1',
      sessionId: expect.stringMatching(/^cses_/),
      language: 'ja',
      expiresAt,
      via: 'bearer',
    });
    // A bearer console token is no cookie session.
    expect(await useCase.verify(token, { csrfToken: null })).toBeNull();
    now = new Date(now.getTime() + CONSOLE_SESSION_TTL_MS - 1);
    expect(await useCase.verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 1);
    expect(await useCase.verify(token)).toBeNull();
  });

  it('verifies a cookie session only as the cookie, and tells whether the CSRF token matches', async () => {
    const { sessions, repository } = fakeRepository();
    const useCase = new ConsoleSessionsUseCase(repository, clock);
    const token = 'gcs_cookie';
    const csrf = csrfTokenOf(token);
    sessions.set(hashSecret(token), {
      id: 'cses_2',
      accountId: 'acc_1',
      expiresAt: new Date(now.getTime() + 1000),
      revokedAt: null,
      csrfHash: hashSecret(csrf),
    });
    expect(await useCase.verify(token, { csrfToken: csrf })).toMatchObject({
      via: 'cookie',
      csrfMatches: true,
    });
    expect(await useCase.verify(token, { csrfToken: 'wrong' })).toMatchObject({ csrfMatches: false });
    expect(await useCase.verify(token, { csrfToken: null })).toMatchObject({ csrfMatches: false });
    expect(await useCase.verify(token)).toBeNull();
  });

  it('refuses unknown and revoked tokens, and sessions for unknown accounts', async () => {
    const { sessions, repository } = fakeRepository();
    const useCase = new ConsoleSessionsUseCase(repository, clock);
    expect(await useCase.verify('gcs_nothing')).toBeNull();
    const { token } = await useCase.create('acc_1');
    sessions.get(hashSecret(token))!.revokedAt = now;
    expect(await useCase.verify(token)).toBeNull();
    await expect(useCase.create('acc_missing')).rejects.toMatchObject({
      code: 404,
      messageId: 'account.not_found',
    });
  });
});
