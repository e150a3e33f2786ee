/**
 * The one error class every @x/jobs package throws. The `code` is the stable contract; the
 * message says what went wrong and what to do, and may change between releases.
 */
export class JobsError<Code extends string = string> extends Error {
  /** Stable machine-readable code, e.g. `X_JOB_INPUT_INVALID`. Branch on this, never on the message. */
  readonly code: Code;
  /** Structured details safe to log (never payload values). */
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(
    code: Code,
    message: string,
    options: { meta?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JobsError';
    this.code = code;
    this.meta = Object.freeze({ ...(options.meta ?? {}) });
  }

  /** A JSON shape for logs and `--json` output: code, message and meta, never the stack. */
  toJSON(): { name: string; code: Code; message: string; meta: Readonly<Record<string, unknown>> } {
    return { name: this.name, code: this.code, message: this.message, meta: this.meta };
  }
}

/** True when `error` is a {@link JobsError}, optionally with the given code. */
export function isJobsError<Code extends string>(error: unknown, code?: Code): error is JobsError<Code> {
  return error instanceof JobsError && (code === undefined || error.code === code);
}

/** The `code` of any thrown value: a JobsError's code, a native error's string `code`, else undefined. */
export function errorCode(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
