import { ATTEMPT_ERROR_LIMITS, type AttemptFailure, type ErrorCauseRecord } from '../driver/attempt-error.js';
import { cutToJsonBytes, jsonTextBytes } from '../values/json-bytes.js';
import { redactText } from '../values/redact-text.js';
import { storableText } from '../values/string-rule.js';

/** Where the failure happened: the attempt's number and the step whose call threw, if any. */
export interface FailurePlace {
  readonly attempt: number;
  readonly step: string | null;
}

/** Per-field caps, in UTF-8 bytes of JSON text, before the whole record is fitted. */
const CAPS = Object.freeze({
  name: 200,
  code: 200,
  step: 512,
  message: 4_096,
  stack: 8_192,
  causeMessage: 1_024,
  causeStack: 2_048,
});

/**
 * How many code units past a field's cap are read before it is redacted and cut: a code unit is
 * at least one byte, so nothing past the cap could be kept, except what redaction shortens.
 */
const READ_SLACK = 1_024;

/** A thrown value read defensively: a getter that throws or a revoked Proxy reads as absent. */
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isErrorLike(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  try {
    if (value instanceof Error) return true;
  } catch {
    return false;
  }
  return typeof read(value, 'message') === 'string' && typeof read(value, 'stack') === 'string';
}

/** Any value as text, never throwing: strings as they are, objects as JSON where they can be. */
function textOf(value: unknown): string {
  try {
    if (typeof value === 'string') return value;
    if (value === null || typeof value !== 'object') {
      return typeof value === 'function' ? `[function ${value.name || 'anonymous'}]` : String(value);
    }
    const json = JSON.stringify(value);
    return typeof json === 'string' ? json : Object.prototype.toString.call(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '[unreadable value]';
    }
  }
}

function classNameOf(value: unknown): string {
  if (!isErrorLike(value)) return 'NonError';
  const name = read(value, 'name');
  if (typeof name === 'string' && name !== '') return name;
  const maker = read(value, 'constructor');
  const constructorName = typeof maker === 'function' ? read(maker as unknown as object, 'name') : undefined;
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : 'Error';
}

/** A string field made storable, redacted and capped; `cut` tells whether it was shortened. */
function field(
  raw: string,
  capBytes: number,
  extraKeys: readonly string[],
  redact: boolean,
): { text: string; cut: boolean } {
  const readUnits = capBytes + READ_SLACK;
  const long = raw.length > readUnits;
  const clean = storableText(long ? raw.slice(0, readUnits) : raw);
  const shown = redact ? redactText(clean, extraKeys) : clean;
  const fitted = cutToJsonBytes(shown, capBytes);
  // A cut at the read limit can split a surrogate pair: storableText repaired it above.
  return { text: fitted.text, cut: fitted.cut || long };
}

interface Link {
  name: string;
  code: string | null;
  message: string;
  stack: string | null;
}

/** One link of the chain, capped; `cut` is set when anything was shortened. */
function linkOf(
  value: unknown,
  caps: { message: number; stack: number },
  extraKeys: readonly string[],
  note: { cut: boolean },
): Link {
  const errorLike = isErrorLike(value);
  const name = field(classNameOf(value), CAPS.name, extraKeys, false);
  const rawCode =
    errorLike || (value !== null && typeof value === 'object') ? read(value as object, 'code') : undefined;
  const code =
    typeof rawCode === 'string' && rawCode !== '' ? field(rawCode, CAPS.code, extraKeys, false) : undefined;
  const rawMessage = errorLike ? read(value, 'message') : value;
  const message = field(
    errorLike && rawMessage === undefined ? '' : textOf(rawMessage),
    caps.message,
    extraKeys,
    true,
  );
  const rawStack = errorLike ? read(value, 'stack') : undefined;
  const stack = typeof rawStack === 'string' ? field(rawStack, caps.stack, extraKeys, true) : undefined;
  if (name.cut || code?.cut || message.cut || stack?.cut) note.cut = true;
  return { name: name.text, code: code?.text ?? null, message: message.text, stack: stack?.text ?? null };
}

/** The `cause` chain after `top`, outermost first, ending at a cycle or the limit. */
function causesOf(top: unknown, extraKeys: readonly string[], note: { cut: boolean }): ErrorCauseRecord[] {
  const seen = new Set<unknown>([top]);
  const causes: ErrorCauseRecord[] = [];
  let current = top;
  while (current !== null && typeof current === 'object') {
    let has = false;
    try {
      has = 'cause' in current;
    } catch {
      has = false;
    }
    if (!has) break;
    const cause = read(current, 'cause');
    if (cause === undefined || seen.has(cause)) break;
    if (causes.length === ATTEMPT_ERROR_LIMITS.causes) {
      note.cut = true;
      break;
    }
    seen.add(cause);
    causes.push(linkOf(cause, { message: CAPS.causeMessage, stack: CAPS.causeStack }, extraKeys, note));
    current = cause;
  }
  return causes;
}

function recordBytes(record: AttemptFailure): number {
  return Buffer.byteLength(JSON.stringify(record), 'utf8');
}

/**
 * The record of one failed attempt, built from whatever was thrown — an `Error`, a subclass, an
 * error-like object, a string, `undefined`, a Proxy whose getters throw — without ever throwing:
 * class name (`NonError` for a value that is no error), string `code` (else `'ERROR'`), message,
 * stack, the `cause` chain (outermost first, at most `ATTEMPT_ERROR_LIMITS.causes` links, a cycle
 * ends it), the step and the attempt. Every string is well formed without U+0000 (repaired, never
 * refused: it is diagnostics); messages and stacks are redacted like inputs ({@link redactText},
 * with `extraKeys`); and the record as JSON is at most `ATTEMPT_ERROR_LIMITS.recordBytes` in
 * UTF-8: deeper causes' stacks go first, then deeper causes, then the stack is cut (`truncated`).
 */
export function attemptFailureOf(
  thrown: unknown,
  place: FailurePlace,
  extraKeys: readonly string[] = [],
): AttemptFailure {
  const note = { cut: false };
  const top = linkOf(thrown, { message: CAPS.message, stack: CAPS.stack }, extraKeys, note);
  const causes = causesOf(thrown, extraKeys, note);
  const step = place.step === null ? null : field(place.step, CAPS.step, extraKeys, false);
  if (step?.cut) note.cut = true;
  const attempt = Number.isSafeInteger(place.attempt) ? place.attempt : 0;
  const build = (stack: string | null, truncated: boolean): AttemptFailure => ({
    attempt,
    name: top.name,
    code: top.code ?? 'ERROR',
    message: top.message,
    stack,
    causes: causes.map((cause) => ({ ...cause })),
    step: step?.text ?? null,
    truncated,
  });
  let record = build(top.stack, note.cut);
  const limit = ATTEMPT_ERROR_LIMITS.recordBytes;
  for (let i = causes.length - 1; i >= 0 && recordBytes(record) > limit; i--) {
    const cause = causes[i] as Link;
    if (cause.stack === null) continue;
    cause.stack = null;
    record = build(top.stack, true);
  }
  while (causes.length > 0 && recordBytes(record) > limit) {
    causes.pop();
    record = build(top.stack, true);
  }
  const over = recordBytes(record) - limit;
  if (over > 0 && top.stack !== null) {
    const stackBytes = jsonTextBytes(top.stack);
    const cut = cutToJsonBytes(top.stack, stackBytes - over);
    record = build(cut.text, true);
  }
  return record;
}
