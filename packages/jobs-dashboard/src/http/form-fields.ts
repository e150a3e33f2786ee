import { dashboardError } from '../errors.js';

/** Bodies above this many bytes are refused. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A POST body's fields, whether it came as a form or as a JSON object. */
export type FormFields = (name: string) => string | null;

/**
 * Reads a POST body: `application/x-www-form-urlencoded` or `multipart/form-data` (what a form
 * sends), or a JSON object (what an API client sends; non-string values are re-encoded as JSON).
 * An empty body has no fields. Too large or malformed is `X_DASHBOARD_BAD_REQUEST`.
 */
export async function readFormFields(request: Request): Promise<FormFields> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw tooLarge();
  if (text.trim() === '') return () => null;
  if (type.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw dashboardError('X_DASHBOARD_BAD_REQUEST', 'The body is not valid JSON.', { field: 'body' });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw dashboardError('X_DASHBOARD_BAD_REQUEST', 'The body must be a JSON object.', { field: 'body' });
    }
    const record = parsed as Record<string, unknown>;
    return (name) => {
      const value = record[name];
      if (value === undefined) return null;
      return typeof value === 'string' ? value : JSON.stringify(value);
    };
  }
  if (type.includes('multipart/form-data')) {
    const form = await new Response(text, { headers: { 'content-type': type } }).formData();
    return (name) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : null;
    };
  }
  const params = new URLSearchParams(text);
  return (name) => params.get(name);
}

function tooLarge(): Error {
  return dashboardError('X_DASHBOARD_BAD_REQUEST', `The body is over ${MAX_BODY_BYTES} bytes.`, {
    field: 'body',
  });
}
