/** The PostgreSQL the tests use: `DATABASE_URL`, else the loopback server CI starts. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
