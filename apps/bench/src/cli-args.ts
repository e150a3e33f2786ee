import { type BenchSettings, FULL_SETTINGS, QUICK_SETTINGS } from './settings.js';
import { isSystemName, SYSTEM_NAMES, type SystemName } from './systems/catalog.js';
import { isWorkloadId, WORKLOAD_IDS } from './workloads/catalog.js';
import type { WorkloadId } from './workloads/workload.js';

/** What one `pnpm bench …` invocation asks for. */
export interface CliOptions {
  readonly systems: readonly SystemName[];
  readonly workloads: readonly WorkloadId[];
  readonly settings: BenchSettings;
  /** Quick runs write RESULTS-quick.md instead of RESULTS.md. */
  readonly quick: boolean;
}

/** The usage text printed on `--help` and on a bad argument. */
export const USAGE = `usage: pnpm bench [--system <name>[,<name>…]|all] [--workload <W1…W7|fleet|fair>[,…]|all]
                  [--runs <n>] [--idle-seconds <s>] [--held-seconds <s>] [--quick]
systems:   ${SYSTEM_NAMES.join(', ')}
workloads: ${WORKLOAD_IDS.join(', ')}
--quick    every size divided by ten, one run, W6 over 3 s; writes RESULTS-quick.md`;

/** A bad command line: the message is printed with the usage, exit code 2. */
export class UsageError extends Error {}

function list<T extends string>(
  value: string,
  all: readonly T[],
  valid: (v: string) => v is T,
  what: string,
): T[] {
  if (value === 'all') return [...all];
  return value.split(',').map((item) => {
    if (!valid(item)) throw new UsageError(`unknown ${what} "${item}"`);
    return item;
  });
}

function positive(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} needs a positive number, got "${value}"`);
  return n;
}

/** Parses the arguments after `src/cli.ts`. */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  let systems: SystemName[] = [...SYSTEM_NAMES];
  let chosen: WorkloadId[] = [...WORKLOAD_IDS];
  let runs: number | undefined;
  let idleSeconds: number | undefined;
  let heldSeconds: number | undefined;
  let quick = false;
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = (): string => {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      index += 1;
      return next;
    };
    switch (flag) {
      case '--system':
        systems = list(value(), SYSTEM_NAMES, isSystemName, 'system');
        break;
      case '--workload':
        chosen = list(value(), WORKLOAD_IDS, isWorkloadId, 'workload');
        break;
      case '--runs':
        runs = Math.round(positive(value(), '--runs'));
        break;
      case '--idle-seconds':
        idleSeconds = positive(value(), '--idle-seconds');
        break;
      case '--held-seconds':
        heldSeconds = positive(value(), '--held-seconds');
        break;
      case '--quick':
        quick = true;
        break;
      case '--':
        break;
      default:
        throw new UsageError(`unknown argument "${flag}"`);
    }
  }
  const base = quick ? QUICK_SETTINGS : FULL_SETTINGS;
  const settings: BenchSettings = {
    ...base,
    ...(runs === undefined ? {} : { runs }),
    ...(idleSeconds === undefined ? {} : { w6Seconds: idleSeconds }),
    ...(heldSeconds === undefined ? {} : { w8Seconds: heldSeconds }),
  };
  return { systems, workloads: chosen, settings, quick };
}
