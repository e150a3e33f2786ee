import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { WorkloadId } from '../workloads/workload.js';
import type { MachineNotes } from './machine.js';

/** One invocation of the CLI. */
export interface RunRecord {
  readonly id: number;
  /** The exact command line, as typed at the repository root. */
  readonly command: string;
  readonly startedAt: string;
  finishedAt?: string;
  /** 1/5/15-minute load averages when the invocation started and ended. */
  readonly loadBefore: readonly number[];
  loadAfter?: readonly number[];
  readonly gitCommit: string;
  /**
   * The CPU model the run measured on (`os.cpus()[0].model`): the shared machine is not always the
   * same host, and absolute rates move with it. Absent in runs recorded before it was kept.
   */
  readonly cpu?: string;
}

/** The latest measurement of one workload on one system: every run's value per metric. */
export interface ResultRecord {
  readonly workload: WorkloadId;
  readonly system: string;
  /** The {@link RunRecord.id} that produced it. */
  readonly run: number;
  readonly values: Readonly<Record<string, readonly number[]>>;
  /** Set when at least one measurement failed; the values hold the runs that succeeded. */
  readonly error?: string;
}

/** Everything RESULTS.md is rendered from; a single-system run replaces only its own rows. */
export interface ResultFile {
  machine?: MachineNotes;
  versions: Record<string, string>;
  runs: RunRecord[];
  results: ResultRecord[];
  /**
   * Hand-written lines rendered under a workload's table (a before/after the table alone cannot
   * show: it holds the latest measurement only). Name the runs and commands they come from.
   */
  notes?: Partial<Record<WorkloadId, string[]>>;
}

/** Reads the results file, or an empty one. */
export function readResultFile(path: URL): ResultFile {
  if (!existsSync(path)) return { versions: {}, runs: [], results: [] };
  return JSON.parse(readFileSync(path, 'utf8')) as ResultFile;
}

/** Replaces the record of the same (workload, system), keeping every other. */
export function upsertResult(file: ResultFile, record: ResultRecord): void {
  file.results = file.results.filter(
    (existing) => !(existing.workload === record.workload && existing.system === record.system),
  );
  file.results.push(record);
}

/** Writes the results file, dropping run records no result points at any more. */
export function writeResultFile(path: URL, file: ResultFile): void {
  const used = new Set(file.results.map((result) => result.run));
  file.runs = file.runs.filter((run) => used.has(run.id) || run === file.runs[file.runs.length - 1]);
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}
