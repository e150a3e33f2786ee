import { percentile } from '../stats.js';
import type { Workload } from './workload.js';

/**
 * Fair claiming (issue 21): tenant A enqueues `fairAJobs` jobs, then tenant B enqueues
 * `fairBJobs`, into one queue drained by one worker at concurrency 10 (default prefetch). Measured
 * twice per run: with `fairness: 'none'` (today's order: B waits behind A's whole backlog) and
 * with `fairness: 'tenant'`. B's wait is handler start minus the time taken just before B's
 * enqueue call; "A before B's last" counts A's jobs started before B's last one did.
 */
export const fairClaiming: Workload = {
  id: 'fair',
  title: "Fair claiming — tenant A enqueues 20,000 jobs, then tenant B 100; B's wait",
  metrics: [
    { key: 'offP50', label: 'off: B p50', unit: 'ms', better: 'lower' },
    { key: 'offP99', label: 'off: B p99', unit: 'ms', better: 'lower' },
    { key: 'offAhead', label: "off: A before B's last", unit: 'jobs', better: 'lower' },
    { key: 'onP50', label: 'fair: B p50', unit: 'ms', better: 'lower' },
    { key: 'onP99', label: 'fair: B p99', unit: 'ms', better: 'lower' },
    { key: 'onAhead', label: "fair: A before B's last", unit: 'jobs', better: 'lower' },
  ],
  appliesTo: (name) => name === 'x-pg' || name === 'x-redis' || name === 'x-memory',
  async run({ system, settings }) {
    const probe = system.fairProbe;
    if (probe === undefined) throw new Error(`${system.name} has no fair-claiming probe`);
    const { fairAJobs, fairBJobs, concurrency } = settings;
    // With fairness off B waits for A's whole backlog: give it the time of two drains.
    const timeoutMs = settings.drainTimeoutMs * 2;
    const off = await probe.run('none', fairAJobs, fairBJobs, concurrency, timeoutMs);
    const on = await probe.run('tenant', fairAJobs, fairBJobs, concurrency, timeoutMs);
    return {
      offP50: percentile(off.bWaitsMs, 50),
      offP99: percentile(off.bWaitsMs, 99),
      offAhead: off.aBeforeLastB,
      onP50: percentile(on.bWaitsMs, 50),
      onP99: percentile(on.bWaitsMs, 99),
      onAhead: on.aBeforeLastB,
    };
  },
};
