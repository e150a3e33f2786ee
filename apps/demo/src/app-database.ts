import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from '@x/jobs-driver-pg/pglite';
import { type Generated, Kysely, sql } from 'kysely';

/** The demo app's own tables: what a real app would already have. */
export interface AppDatabase {
  demo_orgs: {
    id: string;
    name: string;
    owner_email: string;
    workspace_id: string | null;
    onboarding_job_id: string | null;
    onboarded_at: Date | null;
    created_at: Generated<Date>;
  };
  demo_mailbox: {
    id: Generated<number>;
    to_address: string;
    template: string;
    sent_at: Generated<Date>;
  };
  /** Each org's owner e-mail domain, filled by the `demo.org-domains` backfill. */
  demo_org_domains: {
    org_id: string;
    domain: string;
  };
  /** One row per (address, template) the fake mail provider has already failed once. */
  demo_mail_failures: {
    key: string;
  };
}

/** The embedded database in `dataDir`, and Kysely over it. */
export interface AppDb {
  readonly pglite: PGlite;
  readonly db: Kysely<AppDatabase>;
}

/** Opens (creating on first run) the embedded PostgreSQL in `dataDir` and the demo's tables. */
export async function openAppDatabase(dataDir: string): Promise<AppDb> {
  const pglite = await PGlite.create(dataDir);
  const db = new Kysely<AppDatabase>({ dialect: new PGliteDialect(pglite) });
  await sql`
    create table if not exists demo_orgs (
      id text primary key,
      name text not null,
      owner_email text not null,
      workspace_id text,
      onboarding_job_id text,
      onboarded_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table if not exists demo_mailbox (
      id serial primary key,
      to_address text not null,
      template text not null,
      sent_at timestamptz not null default now()
    )`.execute(db);
  await sql`create table if not exists demo_mail_failures (key text primary key)`.execute(db);
  await sql`create table if not exists demo_org_domains (org_id text primary key, domain text not null)`.execute(
    db,
  );
  return { pglite, db };
}
