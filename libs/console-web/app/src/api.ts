/** The console's calls to /console/v1: the session cookie goes by itself, the CSRF token by hand. */

export interface Envelope<T> {
  readonly code: number;
  readonly msg: string;
  readonly data?: T;
  /** On some refusals: which rule the value broke, as a code the page words itself. */
  readonly reason?: string;
}

/** A refusal of the API, with its localized message (shown to the user as it is). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let language = 'en';
let onSignedOut: () => void = () => undefined;

/** Kept in memory only: a reload recovers it from GET /console/v1/session. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
export function setApiLanguage(tag: string): void {
  language = tag;
}
/** Called when the session is gone (expired, revoked, signed out elsewhere): every 401. */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': language };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/console/v1${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new ApiError(response.status, response.status, response.statusText);
  }
  if (response.status === 401 && path !== '/sign-in') onSignedOut();
  if (!response.ok) throw new ApiError(response.status, envelope.code, envelope.msg, envelope.reason);
  return envelope.data as T;
}

/** `?a=1&b=2` of the defined values, or ''. */
export function query(params: Record<string, string | undefined>): string {
  const defined = Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]));
  return defined.length ? `?${new URLSearchParams(defined).toString()}` : '';
}

export interface Session {
  readonly accountId: string;
  readonly language: string | null;
  readonly expiresAt: string;
  readonly csrfToken: string;
}

export interface ApiKey {
  readonly keyId: string;
  readonly prefix: string;
  readonly name: string;
  readonly dailyCap: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revoked: boolean;
  readonly spentToday: string;
}

export interface Balance {
  readonly currency: string;
  readonly available: string;
  readonly held: string;
  readonly total: string;
  readonly sources: {
    readonly wallet: string;
    readonly credit: string;
    readonly grants: ReadonlyArray<{
      id: string;
      model: string;
      available: string;
      expiresAt: string | null;
    }>;
  };
}

export interface ModelUsage {
  readonly model: string;
  readonly calls: number;
  readonly spend: string;
}
export interface Usage {
  readonly from: string;
  readonly to: string;
  readonly totals: { calls: number; spend: string };
  readonly days: ReadonlyArray<{ date: string; calls: number; spend: string }>;
  readonly models: readonly ModelUsage[];
}

export interface TaskItem {
  readonly taskId: string;
  readonly model: string;
  readonly state: string;
  readonly createdAt: string;
  readonly completedAt?: string;
  readonly cost: string;
  readonly keyId: string;
}
export interface Asset {
  readonly key: string;
  readonly mime: string;
  readonly url?: string;
  readonly width?: number;
  readonly height?: number;
}
export interface Task extends TaskItem {
  readonly settled: boolean;
  readonly estimatedCost: string;
  readonly output?: {
    assets: readonly Asset[];
    text?: string;
    message?: {
      content: string | null;
      reasoning_content?: string;
      tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[];
    };
    usage?: {
      prompt_tokens: number;
      cached_tokens: number;
      completion_tokens: number;
      reasoning_tokens: number;
    };
    finishReason?: string;
  };
  readonly errorCode?: string;
  readonly errorMessage?: string;
}

export interface Attempt {
  readonly n: number;
  readonly attemptedAt: string;
  readonly outcome: string;
  readonly status?: number;
  /** The error's class when it failed without an answer (e.g. ECONNREFUSED), never an address. */
  readonly error?: string;
  readonly durationMs: number;
}
export interface Delivery {
  readonly deliveryId: string;
  readonly url: string;
  readonly state: string;
  readonly attempts: number;
  readonly attemptLog: readonly Attempt[];
}
export interface Message {
  readonly messageId: string;
  readonly endpointId: string;
  readonly eventType: string;
  readonly state: string;
  readonly attempts: number;
  readonly attemptLog: readonly Attempt[];
}

export interface Endpoint {
  readonly id: string;
  readonly url: string;
  readonly enabledEvents: readonly string[];
  readonly description: string;
  readonly enabled: boolean;
  readonly status: 'enabled' | 'disabled';
  readonly disabledReason: string | null;
  readonly consecutiveFailures: number;
  readonly createdAt: string;
}
