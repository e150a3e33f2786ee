import type { SystemName } from '../systems/catalog.js';
import type { WorkloadId } from '../workloads/workload.js';

/** Where a target's bound comes from: another system's median times a factor, or a fixed number. */
export type TargetBound =
  | { readonly kind: 'relative'; readonly system: SystemName; readonly factor: number }
  | { readonly kind: 'absolute'; readonly value: number };

/** One target of the issues, checked against the medians in RESULTS.md. */
export interface Target {
  readonly text: string;
  readonly workload: WorkloadId;
  readonly metric: string;
  readonly system: SystemName;
  /** `'≥'`: the median must reach the bound; `'≤'` / `'<'`: it must stay under it. */
  readonly op: '≥' | '≤' | '<';
  readonly bound: TargetBound;
}

const rel = (system: SystemName, factor: number): TargetBound => ({ kind: 'relative', system, factor });
const abs = (value: number): TargetBound => ({ kind: 'absolute', value });

/**
 * The targets of issue 16 (Postgres at the head of the field), in its order, then the targets of
 * issue 11 it keeps (Redis latency, W4 replay, W5, W6, the fleet).
 */
export const TARGETS: readonly Target[] = [
  {
    text: 'Postgres W1 drain ≥ 1.5× graphile-worker 0.18',
    workload: 'W1',
    metric: 'drain',
    system: 'x-pg',
    op: '≥',
    bound: rel('graphile-worker', 1.5),
  },
  {
    text: 'Postgres W1 drain ≥ 50 % of raw-pg',
    workload: 'W1',
    metric: 'drain',
    system: 'x-pg',
    op: '≥',
    bound: rel('raw-pg', 0.5),
  },
  {
    text: 'Postgres bulk enqueue ≥ 2× graphile-worker 0.18',
    workload: 'W1',
    metric: 'bulk',
    system: 'x-pg',
    op: '≥',
    bound: rel('graphile-worker', 2),
  },
  {
    text: 'Postgres one-at-a-time enqueue ≥ 0.9× raw-pg',
    workload: 'W1',
    metric: 'single',
    system: 'x-pg',
    op: '≥',
    bound: rel('raw-pg', 0.9),
  },
  {
    text: 'W2 p50 Postgres ≤ graphile-worker 0.18',
    workload: 'W2',
    metric: 'p50',
    system: 'x-pg',
    op: '≤',
    bound: rel('graphile-worker', 1),
  },
  { text: 'W2 p99 Postgres ≤ 20 ms', workload: 'W2', metric: 'p99', system: 'x-pg', op: '≤', bound: abs(20) },
  {
    text: 'W7 durable steps on Postgres ≥ 5× DBOS',
    workload: 'W7',
    metric: 'steps',
    system: 'x-pg',
    op: '≥',
    bound: rel('dbos', 5),
  },
  {
    text: 'Redis W1 drain ≥ 3× BullMQ',
    workload: 'W1',
    metric: 'drain',
    system: 'x-redis',
    op: '≥',
    bound: rel('bullmq', 3),
  },
  {
    text: 'W2 p50 Redis ≤ BullMQ',
    workload: 'W2',
    metric: 'p50',
    system: 'x-redis',
    op: '≤',
    bound: rel('bullmq', 1),
  },
  { text: 'W2 p99 Redis ≤ 20 ms', workload: 'W2', metric: 'p99', system: 'x-redis', op: '≤', bound: abs(20) },
  {
    text: 'W4 replay of 1,000 completed steps ≤ 50 ms on Postgres',
    workload: 'W4',
    metric: 'replay',
    system: 'x-pg',
    op: '≤',
    bound: abs(50),
  },
  {
    text: 'W5 memory driver ≥ 100,000 jobs/s',
    workload: 'W5',
    metric: 'drain',
    system: 'x-memory',
    op: '≥',
    bound: abs(100_000),
  },
  {
    text: 'W6 idle worker < 1 % of a core (Postgres)',
    workload: 'W6',
    metric: 'cpu',
    system: 'x-pg',
    op: '<',
    bound: abs(1),
  },
  {
    text: 'W6 idle worker < 1 % of a core (Redis)',
    workload: 'W6',
    metric: 'cpu',
    system: 'x-redis',
    op: '<',
    bound: abs(1),
  },
  {
    text: 'Fleet on Postgres loses nothing',
    workload: 'fleet',
    metric: 'lost',
    system: 'x-pg',
    op: '≤',
    bound: abs(0),
  },
  {
    text: 'Fleet on Redis loses nothing',
    workload: 'fleet',
    metric: 'lost',
    system: 'x-redis',
    op: '≤',
    bound: abs(0),
  },
];

/** Whether `value` meets `op bound`. */
export function meets(value: number, op: Target['op'], bound: number): boolean {
  if (op === '≥') return value >= bound;
  if (op === '≤') return value <= bound;
  return value < bound;
}
