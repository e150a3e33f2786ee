import { FULL_SETTINGS } from '../settings.js';
import { type Summary, summarize } from '../stats.js';
import { SYSTEM_NAMES } from '../systems/catalog.js';
import { WORKLOAD_IDS, workloads } from '../workloads/catalog.js';
import type { MetricSpec, WorkloadId } from '../workloads/workload.js';
import { RATIO_PAIRS } from './ratio-pairs.js';
import type { ResultFile, ResultRecord } from './result-file.js';
import { meets, TARGETS } from './targets.js';

/** A number as the tables print it: thousands separators for rates, decimals for small values. */
export function formatNumber(value: number, unit: MetricSpec['unit']): string {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'jobs/s' || unit === 'jobs' || unit === 'count' || unit === 'B')
    return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function cell(summary: Summary, unit: MetricSpec['unit']): string {
  const median = formatNumber(summary.median, unit);
  if (summary.n === 1 || summary.min === summary.max) return median;
  return `${median} (${formatNumber(summary.min, unit)}–${formatNumber(summary.max, unit)})`;
}

function metricSpecs(id: WorkloadId, records: readonly ResultRecord[]): MetricSpec[] {
  const known = workloads(FULL_SETTINGS).get(id)?.metrics ?? [];
  const specs = [...known.filter((spec) => records.some((record) => spec.key in record.values))];
  for (const record of records) {
    for (const key of Object.keys(record.values)) {
      if (!specs.some((spec) => spec.key === key))
        specs.push({ key, label: key, unit: 'ms', better: 'lower' });
    }
  }
  return specs;
}

/** A system's latest result of `workload`. */
function resultOf(file: ResultFile, workload: WorkloadId, system: string): ResultRecord | undefined {
  return file.results.find((r) => r.workload === workload && r.system === system);
}

function median(file: ResultFile, workload: WorkloadId, system: string, metric: string): number | undefined {
  const values = resultOf(file, workload, system)?.values[metric];
  return values && values.length > 0 ? summarize(values).median : undefined;
}

function workloadTable(file: ResultFile, id: WorkloadId): string[] {
  const records = file.results
    .filter((record) => record.workload === id)
    .sort((a, b) => SYSTEM_NAMES.indexOf(a.system as never) - SYSTEM_NAMES.indexOf(b.system as never));
  if (records.length === 0) return [];
  const specs = metricSpecs(id, records);
  const title = workloads(FULL_SETTINGS).get(id)?.title ?? id;
  const lines = [`### ${title}`, ''];
  lines.push(`| system | ${specs.map((spec) => `${spec.label} (${spec.unit})`).join(' | ')} | runs | from |`);
  lines.push(`|---|${specs.map(() => '--:').join('|')}|--:|--:|`);
  for (const record of records) {
    const cells = specs.map((spec) => {
      const values = record.values[spec.key];
      return values && values.length > 0 ? cell(summarize(values), spec.unit) : '—';
    });
    const runs = Math.max(0, ...Object.values(record.values).map((values) => values.length));
    lines.push(`| ${record.system} | ${cells.join(' | ')} | ${runs} | #${record.run} |`);
  }
  const notes = file.notes?.[id] ?? [];
  if (notes.length > 0) lines.push('', ...notes);
  const failures = records.filter((record) => record.error);
  if (failures.length > 0) {
    lines.push('');
    for (const record of failures) lines.push(`- **${record.system}** failed: ${record.error}`);
  }
  lines.push('');
  return lines;
}

/** The W1/W2 columns worth a ratio (every W3 column is one). */
const RATIO_METRICS = new Set(['W1.bulk', 'W1.single', 'W1.drain', 'W2.p50', 'W2.p99', 'W7.steps']);

function ratioSection(file: ResultFile): string[] {
  const rows: string[] = [];
  for (const id of ['W1', 'W2', 'W3'] as const) {
    const records = file.results.filter((record) => record.workload === id);
    for (const spec of metricSpecs(id, records)) {
      if (!RATIO_METRICS.has(`${id}.${spec.key}`) && id !== 'W3') continue;
      for (const [system, against] of RATIO_PAIRS) {
        const a = median(file, id, system, spec.key);
        const b = median(file, id, against, spec.key);
        if (a === undefined || b === undefined || a === 0 || b === 0) continue;
        const ratio = spec.better === 'higher' ? a / b : b / a;
        const runA = resultOf(file, id, system)?.run;
        const runB = resultOf(file, id, against)?.run;
        const from = runA === runB ? `#${runA}` : `#${runA} vs #${runB}: not side by side`;
        rows.push(`| ${id} ${spec.label} | ${system} vs ${against} | ${ratio.toFixed(2)}× | ${from} |`);
      }
    }
  }
  if (rows.length === 0) return [];
  return [
    '## Ratios (medians; > 1× means the first system is better: faster, or lower latency)',
    '',
    'A ratio holds only for systems measured in the same run (interleaved, on one host); one whose',
    'two sides come from different runs is marked so: read it as a rough direction at most.',
    '',
    '| metric | pair | ratio | from |',
    '|---|---|--:|---|',
    ...rows,
    '',
  ];
}

function targetSection(file: ResultFile): string[] {
  const lines = [
    '## Targets (issues 16, 29 and 11)',
    '',
    '| target | measured | bound | status | profile and blocker, while missed |',
    '|---|--:|--:|---|---|',
  ];
  for (const target of TARGETS) {
    const unit =
      metricSpecs(target.workload, file.results).find((spec) => spec.key === target.metric)?.unit ?? 'ms';
    const value = median(file, target.workload, target.system, target.metric);
    const bound =
      target.bound.kind === 'absolute'
        ? target.bound.value
        : (median(file, target.workload, target.bound.system, target.metric) ?? Number.NaN) *
          target.bound.factor;
    const boundText =
      target.bound.kind === 'absolute'
        ? `${target.op} ${formatNumber(bound, unit)}`
        : `${target.op} ${formatNumber(bound, unit)} (${target.bound.factor}× ${target.bound.system})`;
    const met = value === undefined || Number.isNaN(bound) ? undefined : meets(value, target.op, bound);
    const status = met === undefined ? 'not measured yet' : met ? 'met' : '**missed**';
    const measured = value === undefined ? '—' : `${formatNumber(value, unit)} ${unit}`;
    const blocker = met === false ? (target.blocker ?? 'not profiled yet') : '';
    lines.push(`| ${target.text} | ${measured} | ${boundText} | ${status} | ${blocker} |`);
  }
  lines.push('');
  return lines;
}

/** RESULTS.md: machine, versions, the commands that produced each row (and the CPU each ran on), one table per workload, ratios, targets. */
export function renderResults(file: ResultFile): string {
  const lines = [
    '# Benchmark results',
    '',
    'Generated by `pnpm bench` (see README.md for what each workload measures and how each system is',
    'configured). Every cell is the median of its runs with min–max in brackets. Absolute numbers on a',
    'shared 2-core machine are noise; read the ratios of systems measured in one run, interleaved side by side.',
    '',
  ];
  if (file.machine) {
    const m = file.machine;
    lines.push('## Machine', '');
    lines.push(`- ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB RAM, Linux ${m.kernel}, Node ${m.node}`);
    lines.push(`- ${m.postgres}`, `- ${m.redis}`);
    lines.push('- Shared with other jobs while measuring: see the load averages of each run below.');
    lines.push(
      '- Not always the same host: each run names the CPU it measured on. Compare absolute rates only',
      '  within one run; the ratios of systems run side by side hold across hosts.',
      '',
    );
  }
  lines.push('## Versions', '', '| package | version |', '|---|---|');
  for (const [name, version] of Object.entries(file.versions).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`| ${name} | ${version} |`);
  }
  lines.push(
    '',
    '## Runs',
    '',
    '| # | command | started | load avg (1/5/15 min) before → after | CPU | commit |',
    '|--:|---|---|---|---|---|',
  );
  for (const run of file.runs) {
    const after = run.loadAfter ? run.loadAfter.join(' / ') : '?';
    lines.push(
      `| ${run.id} | \`${run.command}\` | ${run.startedAt} | ${run.loadBefore.join(' / ')} → ${after} | ${run.cpu ?? 'not recorded'} | ${run.gitCommit} |`,
    );
  }
  lines.push('', '## Workloads', '');
  for (const id of WORKLOAD_IDS) lines.push(...workloadTable(file, id));
  lines.push(...ratioSection(file), ...targetSection(file));
  return `${lines.join('\n')}\n`;
}
