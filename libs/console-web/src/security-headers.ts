/**
 * The headers of every console page and file: no inline script or style may run (the build emits none),
 * scripts, styles and API calls only from this origin; images and media also from the object store (task
 * outputs are signed URLs of S3 or of this service). Never framed, never sniffed, no Referer leaves the page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Content-hashed file names never change content: cached for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page names the current hashed files: revalidated on every load (its ETag makes that a 304). */
export const REVALIDATE = 'no-cache';
