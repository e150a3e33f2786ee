import type { Backend } from '../backend/backend.js';
import { type BackendFlags, chooseBackend } from '../backend/backend-choice.js';
import { withBackend } from '../backend/open-backend.js';
import { requireExistingDataDir } from '../backend/require-data-dir.js';
import type { CommandContext } from '../command-context.js';
import type { JsonFlag } from '../command-options.js';
import { Printer } from '../output/printer.js';

/**
 * The body of every backend command: choose the backend from flags and env, open it, run `fn`
 * with a printer for `--json` or human output, and close the backend whatever happened. Only a
 * command passing `createsDatabase` (migrate) may create a PGlite data directory: any other meets
 * a missing one with `X_CLI_DATA_DIR_MISSING`, leaving nothing behind.
 */
export async function operate(
  context: CommandContext,
  flags: BackendFlags & JsonFlag,
  fn: (backend: Backend, printer: Printer) => Promise<void>,
  options: { readonly createsDatabase?: boolean } = {},
): Promise<void> {
  const printer = new Printer(context.io, { json: flags.json === true });
  const choice = chooseBackend(flags, context.io.cwd);
  if (options.createsDatabase !== true) await requireExistingDataDir(choice, context.io.cwd);
  await withBackend(choice, (backend) => fn(backend, printer));
}

/** Example lines for a command's `--help`. */
export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}
