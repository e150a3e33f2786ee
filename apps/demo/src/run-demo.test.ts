import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DEMO_DIR = fileURLToPath(new URL('..', import.meta.url));

interface DemoRun {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs the demo as `pnpm demo` does (tsx on the sources), with a clean environment (so the queue
 * is the embedded PGlite whatever the machine's DATABASE_URL says). With `interruptAt`, sends
 * SIGINT (Ctrl-C) once that text is printed.
 */
function runDemo(dataDir: string, interruptAt?: string): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@x/source', 'src/main.ts'], {
      cwd: DEMO_DIR,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, X_DEMO_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let interrupted = false;
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (interruptAt !== undefined && !interrupted && output.includes(interruptAt)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// Two PGlite processes, one after the other (each ~700 MB): the flow interrupted, then resumed.
describe('pnpm demo', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'x-jobs-demo-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('commits one sign-up and rolls one back, retries only the failed step, and stops cleanly on Ctrl-C', async () => {
    const run = await runDemo(dataDir, 'parked: sleeping');
    expect(run.code, run.output).toBe(0);
    // A clean stop ends on its own last line: exit 0, so pnpm adds no ELIFECYCLE after it.
    expect(run.output.trimEnd()).toMatch(/Stopped\..*resumes from the last completed step\.$/);
    expect(run.output).toMatch(/acme: insert org \+ onboardOrg\.enqueue\(\) in one transaction → COMMIT/);
    expect(run.output).toMatch(/globex: .* → ROLLBACK: no org, no job/);
    expect(run.output).toMatch(/relay: 1 committed row\(s\) published to the queue: onboardOrg \(acme\)/);
    expect(run.output).toMatch(/onboardOrg attempt 1 failed with X_SMTP_UNAVAILABLE: retry in 1\.0s/);
    expect(run.output).toMatch(/↺ provision: replayed from storage, not run again\n.*welcome-email: sending/);
    expect(run.output).toContain('welcome-email: delivered');
    expect(run.output.match(/provision: workspace ws_acme created/g)).toHaveLength(1);
    expect(run.output).toContain('Run pnpm demo again: it resumes from the last completed step.');
  });

  it('run again, resumes after the last completed step and finishes by itself with exit 0', async () => {
    const run = await runDemo(dataDir);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(
      'resuming acme: a previous run stopped mid-onboarding. Stored steps: provision, welcome-email, invite-owner.',
    );
    expect(run.output).not.toContain('provision: workspace');
    expect(run.output).not.toContain('welcome-email: sending');
    expect(run.output).toMatch(/parked: waiting for event 'user\.first-login'/);
    expect(run.output).toMatch(/logged in → publishEvent\('user\.first-login'/);
    expect(run.output).toMatch(/task usageDigest fired for .* → sendUsageDigest enqueued/);
    expect(run.output).toContain('onboardOrg done for acme after 2 attempt(s); globex has 0 onboarding jobs');
    expect(run.output).toMatch(/^ {2}provision {7}completed .* 0× {3}\d+×$/m);
    // The last act: a backfill over the orgs, one page per org, paced, then its ledger row.
    expect(run.output).toMatch(/sweep\s+batch:0: acme → acme\.example/);
    expect(run.output).toMatch(
      /sweep\s+demo\.org-domains: 1 row\(s\) in 1 batch\(es\); the ledger row says completed/,
    );
  });
});

describe('pnpm demo on a data directory another process holds', () => {
  it('stops with exit 1 before opening it, naming the holder and X_DEMO_DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'x-jobs-demo-held-'));
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      // The lock file as @x/jobs-driver-pg's lockDataDir writes it: the holder's pid, then a token.
      await writeFile(path.join(dataDir, '.x-jobs.lock'), `${holder.pid}\nsomeone-else\n`);
      const run = await runDemo(dataDir);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain(`in use by process ${holder.pid}`);
      expect(run.output).toContain('X_DEMO_DATA_DIR');
      expect(run.output).not.toContain('relay:');
    } finally {
      holder.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
