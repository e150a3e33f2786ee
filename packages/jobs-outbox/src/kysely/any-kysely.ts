import type { Kysely, Transaction } from 'kysely';

/**
 * The app's Kysely instance, whatever its database type: `Kysely<DB>` is assignable to
 * `Kysely<any>` only (not to `Kysely<unknown>`), and the outbox's own statements are raw SQL.
 */
// biome-ignore lint/suspicious/noExplicitAny: the one place the app's DB type is erased; see above.
export type AnyKysely = Kysely<any>;

/** A transaction of the app's Kysely instance, whatever its database type. */
// biome-ignore lint/suspicious/noExplicitAny: the one place the app's DB type is erased; see AnyKysely.
export type AnyTransaction = Transaction<any>;
