/**
 * The redaction `x-jobs show` applies, which lives in @x/jobs-dashboard so the CLI and the
 * dashboard redact with one function.
 */
export { DEFAULT_REDACTED_KEYS, REDACTED, redactJson } from '@x/jobs-dashboard';
