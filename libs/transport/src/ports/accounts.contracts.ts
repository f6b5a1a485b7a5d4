import {
  ACCOUNT_DIRECTORY,
  ADMIN_TOKEN_VERIFIER,
  API_KEY_AUTHENTICATOR,
  CONSOLE_SESSION_VERIFIER,
  type AccountDirectory,
  type AdminTokenVerifier,
  type ApiKeyAuthenticator,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import { portContract } from '../port-contract';

/**
 * A credential check sits on a request's path: a peer that does not answer within this is a 503 at once,
 * rather than a client waiting on a stalled gateway.
 */
export const VERIFIER_TIMEOUT_MS = 2000;

/** The accounts domain's ports (answered by the gateway, which owns the accounts). All JSON-safe as they are. */
export const API_KEY_AUTHENTICATOR_CONTRACT = portContract<ApiKeyAuthenticator>({
  token: API_KEY_AUTHENTICATOR,
  service: 'accounts',
  port: 'apiKeys',
  methods: { authenticate: { timeoutMs: VERIFIER_TIMEOUT_MS } },
});

export const CONSOLE_SESSION_VERIFIER_CONTRACT = portContract<ConsoleSessionVerifier>({
  token: CONSOLE_SESSION_VERIFIER,
  service: 'accounts',
  port: 'consoleSessions',
  methods: { verify: { timeoutMs: VERIFIER_TIMEOUT_MS } },
});

export const ADMIN_TOKEN_VERIFIER_CONTRACT = portContract<AdminTokenVerifier>({
  token: ADMIN_TOKEN_VERIFIER,
  service: 'accounts',
  port: 'adminTokens',
  methods: { verify: { timeoutMs: VERIFIER_TIMEOUT_MS } },
});

export const ACCOUNT_DIRECTORY_CONTRACT = portContract<AccountDirectory>({
  token: ACCOUNT_DIRECTORY,
  service: 'accounts',
  port: 'accountDirectory',
  methods: {
    exists: { timeoutMs: VERIFIER_TIMEOUT_MS },
    callbackSettings: { timeoutMs: VERIFIER_TIMEOUT_MS },
  },
});
