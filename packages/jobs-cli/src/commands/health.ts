import type { WorkerHealth, WorkerInfo } from '@x/jobs-core';
import { type Command, InvalidArgumentError } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { checkFailed, usageError } from '../errors.js';
import { Printer } from '../output/printer.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs health` against the backend. */
export interface HealthJson {
  readonly healthy: boolean;
  readonly backend: 'reachable';
  /** Workers that reported themselves within their TTL (30 s), newest report first. */
  readonly workers: readonly WorkerInfo[];
  readonly minWorkers: number;
}

/** The `--json` shape of `x-jobs health --url`: the probe's status and the worker's health. */
export interface ProbeJson {
  readonly healthy: boolean;
  readonly status: number;
  readonly health: WorkerHealth | null;
}

interface HealthFlags extends BackendFlags, JsonFlag {
  readonly url?: string;
  readonly minWorkers?: number;
}

/**
 * `x-jobs health`: exit 0 when healthy, 1 when not. Without `--url` it opens the backend (a
 * misconfiguration or an outage is exit 1 with its code) and counts the workers that reported
 * within their TTL, failing below `--min-workers`. With `--url` it GETs a worker's probe
 * (`x-jobs worker --health-port`, or your own `healthHandler`) and exits 0 only on a 200.
 */
export function registerHealth(program: Command, context: CommandContext): void {
  const command = program
    .command('health')
    .description("check the backend and live workers, or one worker's probe (--url); exit 0 healthy, 1 not")
    .option('--url <probe>', "a worker's probe URL, e.g. http://127.0.0.1:9464/readyz")
    .option('--min-workers <n>', 'fail when fewer workers reported in the last 30 s (default: 0)', parseCount)
    .addHelpText(
      'after',
      examples(
        'DATABASE_URL=postgres://… x-jobs health --min-workers 1',
        'x-jobs health --url http://127.0.0.1:9464/readyz',
      ),
    );
  addJsonOption(addBackendOptions(command)).action(async (flags: HealthFlags) => {
    if (flags.url !== undefined) return probe(context, flags.url, flags.json === true);
    const minWorkers = flags.minWorkers ?? 0;
    await operate(context, flags, async (backend, printer) => {
      await backend.driver.ready?.();
      await backend.driver.stats();
      const workers = [...(await requireIntrospection(backend.driver).workers())].sort(
        (a, b) => b.lastSeenAt - a.lastSeenAt,
      );
      const healthy = workers.length >= minWorkers;
      printer.result<HealthJson>({ healthy, backend: 'reachable', workers, minWorkers }, (data, p) =>
        [
          `${p.green('backend reachable')}; ${data.workers.length} worker(s) reporting`,
          ...(healthy ? [] : [p.red(`fewer than --min-workers ${minWorkers}`)]),
        ].join('\n'),
      );
      if (!healthy) throw checkFailed(`${workers.length} worker(s) reporting, fewer than ${minWorkers}.`);
    });
  });
}

async function probe(context: CommandContext, url: string, json: boolean): Promise<void> {
  const printer = new Printer(context.io, { json });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`--url '${url}' is not a URL.`, { hint: 'Example: --url http://127.0.0.1:9464/readyz' });
  }
  let status = 0;
  let health: WorkerHealth | null = null;
  try {
    const response = await fetch(parsed, { signal: AbortSignal.timeout(5_000) });
    status = response.status;
    health = (await response.json().catch(() => null)) as WorkerHealth | null;
  } catch {
    status = 0;
  }
  const healthy = status === 200;
  printer.result<ProbeJson>({ healthy, status, health }, (data, p) =>
    data.status === 0
      ? p.red(`no answer from ${parsed.origin}`)
      : `${healthy ? p.green('healthy') : p.red('unhealthy')} (${data.status})${
          data.health === null || data.health.reasons.length === 0
            ? ''
            : `: ${data.health.reasons.join('; ')}`
        }`,
  );
  if (!healthy) throw checkFailed(`the probe answered ${status === 0 ? 'nothing' : status}.`);
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new InvalidArgumentError('Expected a whole number ≥ 0.');
  return count;
}
