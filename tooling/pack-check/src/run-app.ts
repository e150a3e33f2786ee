import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { inPool, runCommand } from './run-command.js';
import { compile, writeStrictTsconfig } from './scratch-app.js';

/** The backends the scratch app runs on. */
export const BACKENDS = ['memory', 'pglite', 'postgres', 'redis'] as const;

/**
 * Copies the app (`tooling/pack-check/app/*.ts`) into the scratch app, compiles it strictly with
 * `skipLibCheck: false`, and runs it once per backend in its own Node process (two at a time):
 * each enqueues one job, starts a worker, and waits for its two steps and `completed`. Answers the
 * line each run printed.
 */
export async function runAppOnEveryBackend(scratch: string, appSource: string): Promise<string[]> {
  await cp(appSource, join(scratch, 'app'), { recursive: true });
  await writeStrictTsconfig(scratch, ['app/*.ts'], 'dist');
  const isolated = await compile(scratch);
  const compiled = `strict tsc of the app: our .d.ts clean${isolated === 0 ? '' : `, ${isolated} errors isolated in PGlite's own .d.ts`}`;
  const runs = await inPool(
    2,
    BACKENDS.map((backend) => async () => {
      const { stdout } = await runCommand(process.execPath, [join('dist', 'app', 'main.js'), backend], {
        cwd: scratch,
        timeoutMs: 180_000,
      });
      return stdout.trim();
    }),
  );
  return [compiled, ...runs];
}
