import type { BenchSettings } from '../settings.js';
import type { BenchSystem } from '../system.js';
import type { SystemName } from '../systems/catalog.js';

/** One number a workload reports per run. */
export interface MetricSpec {
  readonly key: string;
  /** Column header in RESULTS.md. */
  readonly label: string;
  readonly unit:
    | 'jobs/s'
    | 'ms'
    | 'µs'
    | '% core'
    | 'jobs'
    | 'count'
    | 's'
    | 'steps/s'
    | 'B'
    | 'per job'
    | '%'
    | 'MB';
  /** Which direction is an improvement (decides how ratios read). */
  readonly better: 'higher' | 'lower';
}

/** What a workload gets to run one measurement, inside the system's host process. */
export interface WorkloadContext {
  readonly name: SystemName;
  readonly system: BenchSystem;
  readonly settings: BenchSettings;
}

/** The workload ids the CLI takes. */
export type WorkloadId = 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'W6' | 'W7' | 'W8' | 'fleet' | 'fair';

/** One workload: what it measures, which systems it applies to, and one measurement. */
export interface Workload {
  readonly id: WorkloadId;
  readonly title: string;
  readonly metrics: readonly MetricSpec[];
  /** Whether the workload makes sense for a system (W4 and W5 are ours only). */
  appliesTo(name: SystemName): boolean;
  /** True when all systems measure at once (idle CPU): the runs then overlap instead of queueing. */
  readonly concurrentAcrossSystems?: boolean;
  /** Runs per system when not `settings.runs` (the fleet run is a correctness check: once). */
  runsFor?(settings: BenchSettings): number;
  /** One measurement: metric key → value. Throws when the system misbehaved. */
  run(context: WorkloadContext): Promise<Record<string, number>>;
}
