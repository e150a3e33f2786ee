import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli.js';

interface ErrorJson {
  readonly error: { readonly code: string; readonly message: string; readonly meta: Record<string, unknown> };
}

describe('x-jobs: the program surface (built binary, memory driver)', () => {
  it('prints help listing every command, and the version, exiting 0', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'migrate',
      'ls',
      'show',
      'dead',
      'retry',
      'cancel',
      'promote',
      'remove',
      'pause',
      'resume',
      'jobs',
      'enqueue',
      'tail',
      'dashboard',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(version.stdout.trim()).toBe(manifest.version);
  });

  it('answers no command with exit 2 and how to list them', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('X_CLI_USAGE');
    expect(run.stderr).toContain('x-jobs --help');
  });

  it('answers an unknown command with exit 2 and the nearest command', async () => {
    const run = await runCli(['lss']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error X_CLI_USAGE: Unknown command 'lss'.*Did you mean ls\?/);
    expect(run.stdout).toBe('');
  });

  it('answers a missing argument with exit 2, the usage line and where to look', async () => {
    const run = await runCli(['retry', '--driver', 'memory']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Missing required argument 'id'");
    expect(run.stderr).toMatch(/usage: x-jobs retry \[options\] <id>/);
    expect(run.stderr).toContain('x-jobs retry --help');
  });

  it('answers an unknown option and a bad choice with exit 2, as JSON under --json', async () => {
    const unknown = await runCli(['ls', '--jsn']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--jsn'.*Did you mean --json\?/);

    const badDriver = await runCli(['ls', '--driver', 'mysql', '--json']);
    expect(badDriver.code).toBe(2);
    const body = badDriver.json<ErrorJson>();
    expect(body.error.code).toBe('X_CLI_USAGE');
    expect(body.error.message).toContain('pg, pglite, redis, memory');
    expect(body.error.meta.usage).toBe('x-jobs ls [options]');
  });

  it('refuses a driver without its URL and a malformed --limit with exit 2', async () => {
    const noUrl = await runCli(['ls', '--driver', 'pg']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('DATABASE_URL');

    const limit = await runCli(['dead', '--driver', 'memory', '--limit', 'lots']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--limit');
  });

  it('runs a command: an empty memory queue lists no queues, in JSON and as text', async () => {
    const json = await runCli(['ls', '--driver', 'memory', '--json']);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ queues: [] });

    const text = await runCli(['ls', '--driver', 'memory']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('No queues yet');
    expect(text.stdout).not.toContain('\u001b[');
  });

  it('answers an operation that fails with exit 1 and the code, on stdout under --json', async () => {
    const run = await runCli(['show', 'no-such-job', '--driver', 'memory', '--json']);
    expect(run.code).toBe(1);
    expect(run.json<ErrorJson>().error).toMatchObject({
      code: 'X_JOB_NOT_FOUND',
      meta: { id: 'no-such-job' },
    });

    const text = await runCli(['cancel', 'no-such-job', '--driver', 'memory']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^error X_JOB_NOT_FOUND: /);
  });

  it('colours only when asked: FORCE_COLOR on a pipe, never with NO_COLOR', async () => {
    const forced = await runCli(['lss'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\u001b[31m');
    const off = await runCli(['lss'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(off.stderr).not.toContain('\u001b[');
  });
});
