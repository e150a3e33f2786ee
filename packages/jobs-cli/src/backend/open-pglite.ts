import { cliError } from '../errors.js';
import type { Backend } from './backend.js';
import type { BackendChoice } from './backend-choice.js';

/** Placeholder until the driver package exports its entry. */
export async function openPgliteBackend(
  choice: Extract<BackendChoice, { kind: 'pglite' }>,
): Promise<Backend> {
  throw cliError('X_CLI_DRIVER_MISSING', `--driver ${choice.kind} is not available yet.`);
}
