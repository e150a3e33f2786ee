import type { JobListJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';

describe('x-jobs jobs (PostgreSQL)', () => {
  let pg: PgFixture;
  const ids: string[] = [];
  beforeAll(async () => {
    pg = await pgFixture();
    for (const [index, tenantId] of ['acme', 'acme', 'globex', 'acme'].entries()) {
      ids.push(await pg.enqueue({ name: index % 2 === 0 ? 'send' : 'bill', queue: 'mail', tenantId }));
    }
    ids.push(await pg.enqueue({ name: 'send', queue: 'other', tenantId: 'acme' }));
    const claimed = await pg.claim('other');
    await pg.driver.nack(claimed.id, claimed.claim, {
      kind: 'dead',
      error: { code: 'X_SMTP', message: 'down' },
      stopReason: 'terminal',
    });
  });
  afterAll(() => pg?.drop());

  it('lists every job newest first, filtered by queue, state, name and tenant', async () => {
    const all = (await pg.cli(['jobs', '--json'])).json<JobListJson>();
    expect(all.jobs.map((job) => job.id)).toEqual([...ids].reverse());
    const mail = (
      await pg.cli(['jobs', '--queue', 'mail', '--name', 'send', '--tenant', 'acme', '--json'])
    ).json<JobListJson>();
    expect(mail.jobs.map((job) => job.id)).toEqual([ids[0]]);
    const dead = (await pg.cli(['jobs', '--state', 'dead', '--json'])).json<JobListJson>();
    expect(dead.jobs).toMatchObject([{ id: ids[4], state: 'dead', lastError: { code: 'X_SMTP' } }]);
  });

  it('pages with --limit and --cursor, and prints a table with the next cursor', async () => {
    const first = await pg.cli(['jobs', '--limit', '2', '--json']);
    const page = first.json<JobListJson>();
    expect(page.jobs).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const rest = (
      await pg.cli(['jobs', '--limit', '10', '--cursor', page.nextCursor ?? '', '--json'])
    ).json<JobListJson>();
    expect(rest.jobs.map((job) => job.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.nextCursor).toBeNull();
    const text = await pg.cli(['jobs', '--limit', '2']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(ids[4]);
    expect(text.stdout).toContain(`more: --cursor ${page.nextCursor}`);
  });

  it('refuses an unknown state with exit 2', async () => {
    const run = await pg.cli(['jobs', '--state', 'zombie']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('X_CLI_USAGE');
  });
});
