import type { BenchSettings } from '../settings.js';
import { fairClaiming } from './fair-claiming.js';
import { fleetFaults } from './fleet.js';
import { w1Throughput } from './w1-throughput.js';
import { w2Latency } from './w2-latency.js';
import { w3Concurrency } from './w3-concurrency.js';
import { w4Steps } from './w4-steps.js';
import { w5Memory } from './w5-memory.js';
import { w6IdleCpu } from './w6-idle-cpu.js';
import { w7StepRuns } from './w7-step-runs.js';
import { w8HeldXmin } from './w8-held-xmin.js';
import type { Workload, WorkloadId } from './workload.js';

/** Every workload id, in the order `--workload all` runs them. */
export const WORKLOAD_IDS: readonly WorkloadId[] = [
  'W1',
  'W2',
  'W3',
  'W4',
  'W5',
  'W6',
  'W7',
  'W8',
  'fleet',
  'fair',
];

/** True for an id the CLI takes. */
export function isWorkloadId(id: string): id is WorkloadId {
  return (WORKLOAD_IDS as readonly string[]).includes(id);
}

/** The workloads as configured by `settings` (W3's columns depend on its concurrencies). */
export function workloads(settings: BenchSettings): ReadonlyMap<WorkloadId, Workload> {
  const list: Workload[] = [
    w1Throughput,
    w2Latency,
    w3Concurrency(settings.w3Concurrencies, settings.w3Processes, settings.concurrency),
    w4Steps,
    w5Memory,
    w6IdleCpu,
    w7StepRuns,
    w8HeldXmin,
    fleetFaults,
    fairClaiming,
  ];
  return new Map(list.map((workload) => [workload.id, workload]));
}
