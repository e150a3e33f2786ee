import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import { type RunningCli, startCli } from '../../test-support/run-cli.js';
import type { DashboardJson } from './dashboard.js';

/** Starts `x-jobs dashboard --json` on a free port and answers its listening line. */
async function serve(
  pg: PgFixture,
  args: readonly string[],
): Promise<{ cli: RunningCli; info: DashboardJson }> {
  const cli = startCli(['dashboard', '--port', '0', '--json', ...args], {
    env: { DATABASE_URL: pg.url, X_JOBS_SCHEMA: pg.schema },
  });
  await cli.waitFor('dashboard.listening');
  return { cli, info: JSON.parse(cli.stdout().trim().split('\n')[0] ?? '') as DashboardJson };
}

describe('x-jobs dashboard (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it('serves on 127.0.0.1 with a random token in the URL; reads need it; a bearer POST acts', async () => {
    const id = await pg.enqueue({ name: 'send', queue: 'dash-q' });
    const { cli, info } = await serve(pg, ['--module', 'test-support/fixtures/app.mjs']);
    try {
      expect(info).toMatchObject({ host: '127.0.0.1', readOnly: false });
      const url = new URL(info.url);
      const token = url.searchParams.get('token') ?? '';
      expect(token.length).toBeGreaterThanOrEqual(16);
      const origin = url.origin;
      expect((await fetch(`${origin}/api/queues`)).status).toBe(401);
      const auth = { authorization: `Bearer ${token}` };
      const queues = (await (await fetch(`${origin}/api/queues`, { headers: auth })).json()) as {
        queues: { queue: string }[];
      };
      expect(queues.queues.map((queue) => queue.queue)).toEqual(['dash-q']);
      const tasks = (await (await fetch(`${origin}/api/tasks`, { headers: auth })).json()) as {
        tasks: { name: string; tz: string; next: { local: string }[] }[];
      };
      expect(tasks.tasks[0]).toMatchObject({ name: 'nightlyGreeting', tz: 'America/Bogota' });
      expect(tasks.tasks[0]?.next[0]?.local).toMatch(/ 03:00 GMT-5$/);
      const cancel = await fetch(`${origin}/api/jobs/${id}/cancel`, { method: 'POST', headers: auth });
      expect(cancel.status).toBe(200);
      expect((await pg.driver.introspect?.get(id))?.state).toBe('cancelled');
    } finally {
      cli.child.kill('SIGINT');
    }
    expect((await cli.done).code).toBe(0);
  });

  it('--read-only needs no token and refuses every action', async () => {
    const id = await pg.enqueue({ name: 'send', queue: 'dash-ro' });
    const { cli, info } = await serve(pg, ['--read-only']);
    try {
      expect(info.url).not.toContain('token=');
      const origin = new URL(info.url).origin;
      const page = await fetch(`${origin}/jobs/${id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const refused = await fetch(`${origin}/api/jobs/${id}/cancel`, { method: 'POST' });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
        'X_DASHBOARD_WRITE_DISABLED',
      );
      expect((await pg.driver.introspect?.get(id))?.state).toBe('ready');
    } finally {
      cli.child.kill('SIGINT');
    }
    expect((await cli.done).code).toBe(0);
  });
});
