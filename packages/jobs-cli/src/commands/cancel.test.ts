import type { ShowJson } from '@x/jobs-dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { CancelJson } from './cancel.js';
import type { PromoteJson } from './promote.js';
import type { RemoveJson } from './remove.js';

describe('x-jobs cancel, promote and remove (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it('cancels a queued job with a reason, then refuses to cancel it again', async () => {
    const id = await pg.enqueue({ name: 'import', queue: 'cancel-q' });
    const run = await pg.cli(['cancel', id, '--reason', 'duplicate import', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<CancelJson>()).toEqual({
      id,
      cancelled: true,
      previousState: 'ready',
      reason: 'duplicate import',
    });
    const shown = (await pg.cli(['show', id, '--json'])).json<ShowJson>();
    expect(shown.job).toMatchObject({ state: 'cancelled', cancelReason: 'duplicate import' });

    const again = await pg.cli(['cancel', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('X_JOB_NOT_CANCELLABLE');
  });

  it('cancels a running job and says it stops at its next heartbeat', async () => {
    await pg.enqueue({ name: 'import', queue: 'cancel-running' });
    const claimed = await pg.claim('cancel-running');
    const run = await pg.cli(['cancel', claimed.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(was running)');
    expect(run.stdout).toContain('next heartbeat');
    expect(await pg.driver.heartbeat(claimed.id, claimed.claim, 60_000)).toBe(false);
  });

  it('promotes a delayed job to due now, and refuses a ready one', async () => {
    const id = await pg.enqueue({ name: 'report', queue: 'promote-q', runAt: Date.now() + 3_600_000 });
    const run = await pg.cli(['promote', id, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<PromoteJson>()).toEqual({ id, promoted: true, previousState: 'delayed' });
    expect((await pg.claim('promote-q')).id).toBe(id);

    const readyId = await pg.enqueue({ name: 'report', queue: 'promote-ready' });
    const refused = await pg.cli(['promote', readyId, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('X_CLI_JOB_NOT_PROMOTABLE');
  });

  it('removes a finished job with its steps, and refuses a running one', async () => {
    const id = await pg.enqueue({ name: 'cleanup', queue: 'remove-q' });
    const claimed = await pg.claim('remove-q');
    const running = await pg.cli(['remove', id]);
    expect(running.code).toBe(1);
    expect(running.stderr).toContain('X_CLI_JOB_NOT_REMOVABLE');
    expect(running.stderr).toContain(`x-jobs cancel ${id}`);

    await pg.driver.ack(claimed.id, claimed.claim, null);
    const run = await pg.cli(['remove', id, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<RemoveJson>()).toEqual({ id, removed: true, previousState: 'done' });
    expect(await pg.driver.introspect?.get(id)).toBeNull();
  });
});
