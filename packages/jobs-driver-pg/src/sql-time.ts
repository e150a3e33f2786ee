import { type RawBuilder, sql } from 'kysely';

/** `now()`: the database clock, for statements Kysely builds. */
export const dbNow: RawBuilder<Date> = sql<Date>`now()`;

/** An epoch-ms value as a timestamptz expression (exact to the millisecond). */
export function fromEpochMs(ms: number): RawBuilder<Date> {
  return sql<Date>`to_timestamp(${ms}::float8 / 1000)`;
}

/** `now() + ms`: a deadline on the database clock. */
export function nowPlusMs(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + ${ms}::float8 * interval '1 millisecond'`;
}
