/** The variable naming the deploy a pass runs in (`staging`, `production`). */
export const BACKFILL_ENVIRONMENT_VARIABLE = 'X_JOBS_ENVIRONMENT';

/**
 * The environment this process runs in: `X_JOBS_ENVIRONMENT`, else `NODE_ENV`, else
 * `'development'`. Which deploys a sweep belongs to is the app's convention; this only reads it.
 */
export function backfillEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env[BACKFILL_ENVIRONMENT_VARIABLE] || env.NODE_ENV || 'development';
}

/** True when `environments` (null for every one) includes `environment`. */
export function environmentAllows(environments: readonly string[] | null, environment: string): boolean {
  return environments === null || environments.includes(environment);
}
