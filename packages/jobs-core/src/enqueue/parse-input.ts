import type { z } from 'zod';
import { coreError } from '../errors/core-error.js';

/** One schema issue as an error reports it: where and which check, never the value. */
export interface InputIssue {
  /** Dotted path into the input, `(root)` for the whole value. */
  readonly path: string;
  /** The zod issue code, e.g. `invalid_type`, `too_small`. */
  readonly code: string;
}

/**
 * Parses `input` with the job's schema. A refusal is `X_JOB_INPUT_INVALID` whose message and
 * `meta.issues` list each issue's path and code, never the values (payloads carry personal data).
 * An async schema is `X_JOB_DECLARATION_INVALID`: enqueue parses synchronously.
 */
export function parseInput(job: string, schema: z.ZodType, input: unknown): unknown {
  let result: ReturnType<z.ZodType['safeParse']>;
  try {
    result = schema.safeParse(input);
  } catch (error) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      `${job}: input schema is asynchronous (an async refine or transform); enqueue parses synchronously.`,
      { field: 'input', job },
      error,
    );
  }
  if (result.success) return result.data;
  const issues: InputIssue[] = result.error.issues.map((issue) => ({
    path: issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.'),
    code: issue.code,
  }));
  throw coreError(
    'X_JOB_INPUT_INVALID',
    `${job}: input does not match the schema: ${issues.map((i) => `${i.path} (${i.code})`).join(', ')}.`,
    { job, issues },
  );
}
