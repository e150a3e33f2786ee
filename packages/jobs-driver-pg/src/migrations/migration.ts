/**
 * One released schema change. Append-only: once released, a migration's statements never change
 * (migrate() refuses a database whose recorded checksum differs, and a test pins every checksum).
 */
export interface Migration {
  /** 1, 2, 3, …: applied in order, each once. */
  readonly version: number;
  /** A short slug for the migrations table and logs. */
  readonly name: string;
  /**
   * The DDL, one statement per entry (PGlite's extended protocol runs one at a time), written with
   * `:"SCHEMA"` where the schema goes.
   */
  readonly statements: readonly string[];
}
