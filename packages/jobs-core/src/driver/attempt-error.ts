/**
 * The limits of the failure records a driver keeps, identical on every driver (core bounds a
 * record before a driver sees it; the driver keeps the newest `perJob`).
 */
export const ATTEMPT_ERROR_LIMITS = Object.freeze({
  /** One record (every field but `at`) as JSON text, in UTF-8 bytes. (16 KiB) */
  recordBytes: 16_384,
  /** Links of the `cause` chain kept after the error itself. */
  causes: 8,
  /** Records a job keeps: the newest, oldest first. */
  perJob: 20,
});

/** One link of a thrown error's `cause` chain, as recorded. */
export interface ErrorCauseRecord {
  /** Its class name (`TypeError`, `PgError`), or `NonError` for a thrown value that is no error. */
  readonly name: string;
  /** Its string `code`, or null when it has none. */
  readonly code: string | null;
  readonly message: string;
  /** Its stack as the runtime wrote it, possibly cut short; null when it has none. */
  readonly stack: string | null;
}

/**
 * What one failed attempt records, as the worker hands it to `nack` (`retry` or `dead`): the
 * thrown error's class, code, message and stack, its `cause` chain, the step that threw and the
 * attempt's number. Core builds it once (`attemptFailureOf`): every string well formed, without
 * U+0000, values of sensitive keys redacted like inputs, and the whole record at most
 * {@link ATTEMPT_ERROR_LIMITS}`.recordBytes` as JSON; a driver stores it as it is.
 */
export interface AttemptFailure {
  /** The attempt's number, 1-based (the row's `attempts` once it started). */
  readonly attempt: number;
  /** The class name of what was thrown (`Error`, `JobsError`), `NonError` for a non-error value. */
  readonly name: string;
  /** The thrown error's string `code`, or `'ERROR'`. */
  readonly code: string;
  readonly message: string;
  /** The stack, possibly cut short (see `truncated`); null when the thrown value had none. */
  readonly stack: string | null;
  /** The `cause` chain, outermost first, at most {@link ATTEMPT_ERROR_LIMITS}`.causes`; a cycle ends it. */
  readonly causes: readonly ErrorCauseRecord[];
  /** The durable step whose call threw it (or threw an error in its cause chain); null when none did. */
  readonly step: string | null;
  /** True when a stack or message was cut, or causes dropped, to fit the limits. */
  readonly truncated: boolean;
}

/** A stored {@link AttemptFailure}: what `introspect.get` lists, oldest first. */
export interface AttemptErrorRecord extends AttemptFailure {
  /** When the driver stored it, epoch ms, on the backend's clock where it has one. */
  readonly at: number;
}
