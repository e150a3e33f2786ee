/**
 * SQL_NOTIFY — wakes the listeners of one queue (retry, promote and resume make rows due outside
 * an enqueue). Inside a transaction it is delivered on commit.
 *
 * Params: `$1` queue.
 * Returns: one row.
 */
export const SQL_NOTIFY = `select pg_notify(:'SCHEMA', left($1::text, 1000))`;
