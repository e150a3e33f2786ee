/** The PostgreSQL the tests use: `DATABASE_URL`, else the loopback server CI starts. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * DATABASE_URL with its own `application_name`, so a fault test can find (and terminate) exactly
 * the sessions of the driver it built, and no other test file's.
 */
export function taggedDatabaseUrl(applicationName: string): string {
  const separator = DATABASE_URL.includes('?') ? '&' : '?';
  return `${DATABASE_URL}${separator}application_name=${encodeURIComponent(applicationName)}`;
}
