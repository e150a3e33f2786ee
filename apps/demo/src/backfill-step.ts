import type { BackfillResult } from '@x/jobs-backfill';
import type { JobDriver } from '@x/jobs-core';
import type { Narrator } from './narrator.js';
import { orgDomains } from './org-backfills.js';

/**
 * The demo's last act: enqueue the `demo.org-domains` backfill, let the worker sweep it, and say
 * what the pass did, or why it was a no-op (a completed ledger row blocks; `--force` sweeps again).
 */
export async function runOrgBackfill(
  driver: JobDriver,
  narrator: Narrator,
  signal: AbortSignal,
): Promise<void> {
  const { id } = await orgDomains.enqueue({});
  narrator.say('sweep', `${orgDomains.name} enqueued: a job, one durable step per page, paced at 10 pages/s`);
  const until = Date.now() + 15_000;
  while (Date.now() < until && !signal.aborted) {
    const row = await driver.introspect?.get(id);
    if (row?.state === 'done') {
      const result = row.result as unknown as BackfillResult;
      narrator.say(
        'sweep',
        result.skipped
          ? `${result.name}: already swept by run ${result.previousRunId} (its ledger row blocks; x-jobs backfill ${result.name} --write --force sweeps again)`
          : `${result.name}: ${result.rows} row(s) in ${result.batches} batch(es); the ledger row says completed`,
      );
      return;
    }
    if (row?.state === 'dead' || row?.state === 'cancelled') {
      narrator.say(
        'sweep',
        narrator.style.red(`${orgDomains.name} ${row.state}: ${row.lastError?.code ?? ''}`),
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
