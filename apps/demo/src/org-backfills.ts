import { backfill } from '@x/jobs-backfill';
import { type JobContext, silentLogger } from '@x/jobs-core';
import { type Kysely, sql } from 'kysely';
import type { AppDatabase } from './app-database.js';
import './job-context.js';

/** The app database from `ctx`: the demo's worker always passes it. */
function database(ctx: JobContext): Kysely<AppDatabase> {
  if (ctx.db === undefined) throw new Error('demo.org-domains needs ctx.db, the app database.');
  return ctx.db;
}

/**
 * Fills `demo_org_domains` from every org's owner e-mail: a backfill over the app's own table,
 * one org per page (a real sweep pages a thousand rows), each page an upsert so a replayed page
 * writes the same rows. Its ledger row makes the next demo run's pass a no-op.
 */
export const orgDomains = backfill({
  name: 'demo.org-domains',
  batch: 1,
  rate: 10,
  tenant: 'none',
  source: {
    query: ({ ctx }) => database(ctx).selectFrom('demo_orgs').select(['id', 'owner_email']),
    key: 'id',
  },
  async handle({ rows, index, ctx }) {
    const values = rows.map((org) => ({ org_id: org.id, domain: org.owner_email.split('@')[1] ?? '' }));
    await database(ctx)
      .insertInto('demo_org_domains')
      .values(values)
      .onConflict((conflict) => conflict.column('org_id').doUpdateSet({ domain: sql`excluded.domain` }))
      .execute();
    const shown = values.map((row) => `${row.org_id} → ${row.domain}`).join(', ');
    ctx.narrator.say('sweep', `batch:${index}: ${shown} (an upsert: a replayed page writes the same row)`);
  },
  // The same predicate, counted: orgs with no domain row. Checked once after the last page.
  async count({ ctx }) {
    const row = await database(ctx)
      .selectFrom('demo_orgs')
      .leftJoin('demo_org_domains', 'demo_org_domains.org_id', 'demo_orgs.id')
      .where('demo_org_domains.org_id', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
  logger: silentLogger,
});
