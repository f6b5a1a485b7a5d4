import { CONSOLE_SESSION_COOKIE } from '@gen/contracts';

/**
 * The web console's session cookie: `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's
 * page sends it), `Path=/console` (the console and its API only), `Secure` when the client came over HTTPS.
 */
export function sessionCookie(token: string, expiresAt: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000));
  return [
    `${CONSOLE_SESSION_COOKIE}=${token}`,
    'Path=/console',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The same cookie, expired: the browser drops it. */
export function clearedSessionCookie(secure: boolean): string {
  return [
    `${CONSOLE_SESSION_COOKIE}=`,
    'Path=/console',
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
