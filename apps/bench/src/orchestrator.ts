import type { CliOptions } from './cli-args.js';
import { SystemHostHandle } from './host/system-host-handle.js';
import { formatNumber } from './results/render-markdown.js';
import type { ResultRecord } from './results/result-file.js';
import { measuredOn, type SystemName } from './systems/catalog.js';
import { workloads } from './workloads/catalog.js';
import type { Workload } from './workloads/workload.js';

/** What the orchestrator hands back per (workload, system) as soon as it has it. */
export type ResultSink = (record: Omit<ResultRecord, 'run'>) => void;

/**
 * Runs the chosen workloads on the chosen systems: one host process per system, started once;
 * runs interleaved (run 1 of every system, then run 2 …) so a burst of load on the shared machine
 * lands on all systems alike; idle-CPU runs all systems at once.
 */
export class Orchestrator {
  private readonly hosts = new Map<SystemName, SystemHostHandle>();
  readonly versions: Record<string, string> = {};

  constructor(private readonly options: CliOptions) {}

  /** Runs every chosen workload, reporting each (workload, system) result to `sink`. */
  async run(sink: ResultSink): Promise<void> {
    const all = workloads(this.options.settings);
    for (const id of this.options.workloads) {
      const workload = all.get(id);
      const systems = this.options.systems.filter(
        (name) => measuredOn(name, id) && workload?.appliesTo(name),
      );
      if (!workload || systems.length === 0) {
        console.log(`${id}: ${workload ? 'no chosen system applies' : 'not implemented yet'}, skipped`);
        continue;
      }
      await this.runWorkload(workload, systems, sink);
    }
  }

  /** Closes every host. */
  async close(): Promise<void> {
    await Promise.all([...this.hosts.values()].map((host) => host.close()));
    this.hosts.clear();
  }

  private async runWorkload(
    workload: Workload,
    systems: readonly SystemName[],
    sink: ResultSink,
  ): Promise<void> {
    const { settings } = this.options;
    const runs = workload.runsFor?.(settings) ?? settings.runs;
    const values = new Map<SystemName, Record<string, number[]>>();
    const errors = new Map<SystemName, string>();
    const measure = async (name: SystemName, run: number): Promise<void> => {
      if (errors.has(name) && !values.has(name)) return;
      try {
        const host = await this.host(name);
        const measured = await host.measure(workload.id, settings, settings.drainTimeoutMs * 6);
        const perMetric = values.get(name) ?? {};
        for (const [key, value] of Object.entries(measured))
          perMetric[key] = [...(perMetric[key] ?? []), value];
        values.set(name, perMetric);
        const shown = workload.metrics
          .filter((spec) => spec.key in measured)
          .map(
            (spec) => `${spec.label} ${formatNumber(measured[spec.key] as number, spec.unit)} ${spec.unit}`,
          );
        console.log(`${workload.id} ${name} run ${run}/${runs}: ${shown.join(', ')}`);
      } catch (error) {
        const message = String((error as Error)?.message ?? error);
        errors.set(name, message);
        console.log(`${workload.id} ${name} run ${run}/${runs}: FAILED ${message}`);
      }
    };
    for (let run = 1; run <= runs; run += 1) {
      if (workload.concurrentAcrossSystems) await Promise.all(systems.map((name) => measure(name, run)));
      else for (const name of systems) await measure(name, run);
    }
    for (const name of systems) {
      const error = errors.get(name);
      sink({
        workload: workload.id,
        system: name,
        values: values.get(name) ?? {},
        ...(error ? { error } : {}),
      });
    }
  }

  private async host(name: SystemName): Promise<SystemHostHandle> {
    const existing = this.hosts.get(name);
    if (existing?.alive) return existing;
    const { host, versions } = await SystemHostHandle.start(name);
    Object.assign(this.versions, versions);
    this.hosts.set(name, host);
    return host;
  }
}
