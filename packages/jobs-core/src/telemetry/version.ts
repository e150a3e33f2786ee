/**
 * The published version of `@x/jobs-core`, set on its tracer and meter. A constant rather than a
 * runtime read of package.json, so the built package needs no JSON import; `version.test.ts`
 * fails when it drifts from package.json (after `changeset version`, update it there).
 */
export const CORE_VERSION = '0.1.0';
