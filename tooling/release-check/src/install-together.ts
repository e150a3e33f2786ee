import { join } from 'node:path';
import { runCommand } from '@x/pack-check/run-command';
import { installScratchApp, npmEnvironment } from '@x/pack-check/scratch-app';

/**
 * Installs every tarball of `tarballs` (package name → path) together with npm into a fresh app in
 * `dir` (outside the workspace), as a user installing the newest of each after the release would:
 * peers strict (`--strict-peer-deps`: any `@x/*` range that misses the version beside it fails),
 * and `@x/*` never fetched from a registry (an `@x` dependency no tarball satisfies fails at once
 * instead of being looked up). Then `npm ls --all` must find the tree valid. Answers the npm
 * command run.
 */
export async function installTogether(dir: string, tarballs: ReadonlyMap<string, string>): Promise<string> {
  const names = [...tarballs.keys()];
  const line = {
    text: `npm install ${names.join(' ')}`,
    specs: names,
    flags: ['--strict-peer-deps', '--ignore-scripts', '--@x:registry=http://127.0.0.1:9/'],
  };
  const command = await installScratchApp(dir, line, tarballs);
  await runCommand('npm', ['ls', '--all', '--loglevel=error'], { cwd: dir, env: npmEnvironment() });
  return command;
}

/** What `x-jobs --version` prints in the app `dir` (the CLI installed from its tarball). */
export async function cliVersion(dir: string): Promise<string> {
  const bin = join(dir, 'node_modules', '.bin', 'x-jobs');
  const { stdout } = await runCommand(bin, ['--version'], { cwd: dir, env: npmEnvironment() });
  return stdout.trim();
}
