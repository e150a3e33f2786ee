import type { JobDetail, JobDriver, JobIntrospection } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { cliError } from '../errors.js';
import type { Palette } from '../output/colour.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/**
 * One `x-jobs <verb> <id>` command that changes a job: what it is called, when it refuses, what
 * it calls on the driver, and what it prints. `Flags` are its own options (beyond backend/json).
 */
export interface JobOperation<Json, Flags> {
  readonly name: string;
  readonly description: string;
  readonly examples: readonly string[];
  /** Adds the command's own options. */
  readonly options?: (command: Command) => Command;
  /**
   * Null when the job may be changed; otherwise the error to throw (a code, and a hint saying
   * what to do instead). Asked again, with the same row, when the driver answers false.
   */
  refusal(job: JobDetail, flags: Flags): Error | null;
  /**
   * Changes the row (through `introspect`, or through core on `driver` when the change has more to
   * it, as a cancel's cascade does); false when it no longer may be (a race with a worker or
   * another operator).
   */
  apply(introspect: JobIntrospection, job: JobDetail, flags: Flags, driver: JobDriver): Promise<boolean>;
  /** The `--json` document. */
  result(job: JobDetail, flags: Flags): Json;
  /** The same for a human. */
  human(result: Json, job: JobDetail, p: Palette): string;
}

/**
 * Registers a {@link JobOperation}: find the job (`X_JOB_NOT_FOUND`), refuse it when its state
 * does not allow the change, apply it, print the result.
 */
export function registerJobOperation<Json, Flags>(
  program: Command,
  context: CommandContext,
  operation: JobOperation<Json, Flags>,
): void {
  const base = program
    .command(operation.name)
    .description(operation.description)
    .argument('<id>', 'job id')
    .addHelpText('after', examples(...operation.examples));
  const command = operation.options?.(base) ?? base;
  addJsonOption(addBackendOptions(command)).action(
    async (id: string, flags: BackendFlags & JsonFlag & Flags) => {
      await operate(context, flags, async (backend, printer) => {
        const introspect = requireIntrospection(backend.driver);
        const job = await findJob(introspect, id);
        const refused = operation.refusal(job, flags);
        if (refused !== null) throw refused;
        if (!(await operation.apply(introspect, job, flags, backend.driver))) {
          throw operation.refusal(job, flags) ?? raced(operation.name, id);
        }
        printer.result(operation.result(job, flags), (result, p) => operation.human(result, job, p));
      });
    },
  );
}

function raced(name: string, id: string): Error {
  return cliError('X_CLI_JOB_CHANGED', `${name}: job '${id}' changed state meanwhile.`, {
    id,
    hint: `Look at it again: x-jobs show ${id}`,
  });
}
