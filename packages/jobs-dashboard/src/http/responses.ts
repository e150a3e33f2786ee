import type { Html } from '../html/escape.js';

/**
 * The Content-Security-Policy of every response: scripts, styles and fetches from this origin
 * only, no inline script or style, no frames, forms post only here.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers every response carries. */
export function securityHeaders(contentType: string, cache = 'no-store'): Headers {
  return new Headers({
    'content-type': contentType,
    'cache-control': cache,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });
}

/** An HTML page. */
export function htmlResponse(page: Html, status = 200): Response {
  return new Response(page.toString(), { status, headers: securityHeaders('text/html; charset=utf-8') });
}

/** A JSON document. */
export function jsonResponse(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: securityHeaders('application/json; charset=utf-8'),
  });
}

/** A static asset (script or stylesheet), cacheable for a minute. */
export function assetResponse(body: string, contentType: string): Response {
  return new Response(body, { status: 200, headers: securityHeaders(contentType, 'public, max-age=60') });
}

/** A 303 to `location` (after a form POST, or after taking `?token=`), with extra headers. */
export function redirectResponse(location: string, extra: Readonly<Record<string, string>> = {}): Response {
  const headers = securityHeaders('text/plain; charset=utf-8');
  headers.set('location', location);
  for (const [name, value] of Object.entries(extra)) headers.append(name, value);
  return new Response(null, { status: 303, headers });
}

/** True when the client wants JSON rather than a page (`Accept: application/json` first, or an `/api/` path). */
export function wantsJson(request: Request, path: string): boolean {
  if (path.startsWith('/api/')) return true;
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}
