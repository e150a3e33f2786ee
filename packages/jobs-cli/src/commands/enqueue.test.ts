import type { JobDetail } from '@x/jobs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { EnqueueJson } from './enqueue.js';

const APP = 'test-support/fixtures/app.mjs';

interface ErrorJson {
  readonly error: { readonly code: string; readonly meta: { readonly hint?: string } };
}

describe('x-jobs enqueue (PostgreSQL)', () => {
  let pg: PgFixture;
  beforeAll(async () => {
    pg = await pgFixture();
  });
  afterAll(() => pg?.drop());

  it("enqueues through the module's handle: its key, its queue; a second enqueue dedupes", async () => {
    const run = await pg.cli(['enqueue', 'greet', '--module', APP, '--input', '{"name":"ada"}', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const first = run.json<EnqueueJson>();
    expect(first).toMatchObject({ job: 'greet', queue: 'default', deduped: false });
    const row = (await pg.driver.introspect?.get(first.id)) as JobDetail;
    expect(row).toMatchObject({
      name: 'greet',
      idempotencyKey: 'greet:ada',
      payload: { name: 'ada' },
      state: 'ready',
    });

    const again = (
      await pg.cli(['enqueue', 'greet', '--module', APP, '--input', '{"name":"ada"}', '--json'])
    ).json<EnqueueJson>();
    expect(again).toMatchObject({ id: first.id, deduped: true });
    const text = await pg.cli([
      'enqueue',
      'greet',
      '--module',
      APP,
      '--input',
      '{"name":"bo"}',
      '--delay',
      '1h',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Enqueued greet \S+ on queue default/);
    const delayed = await pg.driver.introspect?.list({ state: 'delayed' });
    expect(delayed?.jobs.map((job) => job.idempotencyKey)).toEqual(['greet:bo']);
  });

  it("refuses input the job's schema rejects (exit 1), bad JSON and an unknown job (exit 2)", async () => {
    const count = async () => (await pg.driver.introspect?.list({}))?.jobs.length;
    const before = await count();
    const invalid = await pg.cli(['enqueue', 'greet', '--module', APP, '--input', '{"name":1}', '--json']);
    expect(invalid.code).toBe(1);
    expect(invalid.json<ErrorJson>().error.code).toBe('X_JOB_INPUT_INVALID');
    const badJson = await pg.cli(['enqueue', 'greet', '--module', APP, '--input', '{name}', '--json']);
    expect(badJson.code).toBe(2);
    expect(badJson.json<ErrorJson>().error.code).toBe('X_CLI_USAGE');
    const unknown = await pg.cli(['enqueue', 'grete', '--module', APP, '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json<ErrorJson>().error.meta.hint).toBe('Registered jobs: greet');
    expect(await count()).toBe(before);
  });
});
