import { attemptFailureOf } from '@x/jobs-core/driver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { DriverPool, requireRedis } from '../../test/redis-fixture.js';
import { ATTEMPT_ERROR_RECORD_SCRIPT } from '../lua/attempt-error-record.lua.js';

const pool = new DriverPool();
beforeAll(requireRedis);
afterEach(() => pool.cleanup());
afterAll(() => pool.end());

describe('attempt-error-record', () => {
  it('records once per claim: a settle retried after a lost reply adds no second record', async () => {
    const driver = pool.open();
    await driver.enqueue(enqueueRequest('q'));
    const [job] = await driver.claim({ queues: ['q'], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 });
    if (job === undefined) throw new Error('nothing claimed');
    expect(await driver.start(job.id, job.claim, 60_000)).toBe(true);
    const failure = attemptFailureOf(new Error('upstream returned 500'), { attempt: 1, step: 'charge' });
    const record = () =>
      pool.admin.eval(
        ATTEMPT_ERROR_RECORD_SCRIPT.lua,
        1,
        driver.keys.base,
        job.id,
        job.claim.token,
        JSON.stringify(failure),
        20,
      );
    // The first try landed but its reply was lost; the settle is sent again, record and nack.
    expect(await record()).toBe(1);
    expect(await record()).toBe(1);
    const error = { code: 'ERROR', message: 'upstream returned 500' };
    expect(await driver.nack(job.id, job.claim, { kind: 'retry', runAt: driver.now(), error, failure })).toBe(
      true,
    );
    const errors = (await driver.introspect.get(job.id))?.errors ?? [];
    expect(errors.map(({ at: _at, ...rest }) => rest)).toEqual([failure]);
    expect(await record(), 'the claim no longer holds the row').toBe(0);
  });
});
