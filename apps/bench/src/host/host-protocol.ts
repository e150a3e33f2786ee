import type { BenchSettings } from '../settings.js';
import type { WorkloadId } from '../workloads/workload.js';

/** Orchestrator → system host. */
export type ToHost =
  | { readonly kind: 'measure'; readonly workload: WorkloadId; readonly settings: BenchSettings }
  | { readonly kind: 'close' };

/** System host → orchestrator. */
export type FromHost =
  | { readonly kind: 'ready'; readonly versions: Readonly<Record<string, string>> }
  | { readonly kind: 'measured'; readonly values: Readonly<Record<string, number>> }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'closed' };
