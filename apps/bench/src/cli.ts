import { writeFileSync } from 'node:fs';
import { parseCliArgs, USAGE, UsageError } from './cli-args.js';
import { Orchestrator } from './orchestrator.js';
import { installedVersion } from './package-version.js';
import { gitCommit, loadAverages, machineNotes } from './results/machine.js';
import { renderResults } from './results/render-markdown.js';
import { readResultFile, upsertResult, writeResultFile } from './results/result-file.js';

/** Packages whose versions head RESULTS.md, besides the ones each system reports. */
const ALWAYS_LISTED = [
  '@x/jobs-core',
  '@x/jobs-driver-pg',
  '@x/jobs-driver-redis',
  '@x/jobs-driver-memory',
  'pg',
  'ioredis',
  'tsx',
];

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const options = parseCliArgs(process.argv.slice(2));
  const base = options.quick ? 'RESULTS-quick' : 'RESULTS';
  const jsonPath = new URL(`../${base}.json`, import.meta.url);
  const markdownPath = new URL(`../${base}.md`, import.meta.url);

  const file = readResultFile(jsonPath);
  file.machine = await machineNotes();
  for (const name of ALWAYS_LISTED) file.versions[name] = installedVersion(name);
  const runId = Math.max(0, ...file.runs.map((run) => run.id)) + 1;
  const record = {
    id: runId,
    command: ['pnpm bench', ...process.argv.slice(2)].join(' '),
    startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    loadBefore: loadAverages(),
    gitCommit: gitCommit(),
    cpu: file.machine.cpu,
  };
  file.runs.push(record);
  const save = (): void => {
    Object.assign(file.versions, orchestrator.versions);
    writeResultFile(jsonPath, file);
    writeFileSync(markdownPath, renderResults(file));
  };

  const orchestrator = new Orchestrator(options);
  const startedAt = Date.now();
  try {
    await orchestrator.run((result) => {
      upsertResult(file, { ...result, run: runId });
      save();
    });
  } finally {
    await orchestrator.close();
    Object.assign(record, {
      finishedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      loadAfter: loadAverages(),
    });
    save();
  }
  console.log(`done in ${((Date.now() - startedAt) / 1000).toFixed(0)} s; wrote apps/bench/${base}.md`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.error(error);
  process.exitCode = 1;
});
