import { describe, expect, it } from 'vitest';
import { startCli } from '../../test-support/run-cli.js';

const HANG_APP = 'test-support/fixtures/hang-app.mjs';

describe('x-jobs worker: a second signal during the drain', () => {
  it('exits 130 at once, as documented, instead of dying by the signal', async () => {
    const worker = startCli(['worker', '--module', HANG_APP, '--driver', 'memory', '--json'], {
      timeoutMs: 90_000,
    });
    await worker.waitFor('hang-app: body started');
    worker.child.kill('SIGTERM');
    await worker.waitFor('"event":"x-jobs.stopping"');
    // The drain now waits on a body that never returns; the second signal must cut it short.
    await new Promise((resolve) => setTimeout(resolve, 300));
    worker.child.kill('SIGTERM');
    const result = await worker.done;
    expect({ code: result.code, signal: worker.child.signalCode }, result.stderr).toEqual({
      code: 130,
      signal: null,
    });
  });
});
