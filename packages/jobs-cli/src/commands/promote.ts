import type { JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { cliError } from '../errors.js';
import { registerJobOperation } from './job-operation.js';

/** The `--json` shape of `x-jobs promote`. */
export interface PromoteJson {
  readonly id: string;
  readonly promoted: true;
  /** `delayed` or `suspended`; the row is due now. */
  readonly previousState: JobState;
}

/**
 * `x-jobs promote <id>`: a delayed or suspended job becomes due now. A sleep ends early; a wait
 * for an event only looks again (only `publishEvent` or its timeout ends it).
 */
export function registerPromote(program: Command, context: CommandContext): void {
  registerJobOperation<PromoteJson, object>(program, context, {
    name: 'promote',
    description: 'make a delayed or suspended (sleeping, waiting) job due now',
    examples: ['x-jobs promote 0193a6c2-…'],
    refusal: (job) =>
      job.state === 'delayed' || job.state === 'suspended'
        ? null
        : cliError(
            'X_CLI_JOB_NOT_PROMOTABLE',
            `Job '${job.id}' is ${job.state}; only delayed or suspended jobs can be promoted.`,
            { id: job.id, state: job.state },
          ),
    apply: (introspect, job) => introspect.promote(job.id),
    result: (job) => ({ id: job.id, promoted: true, previousState: job.state }),
    human: (result, job, p) =>
      `${p.green('Promoted')} ${p.bold(job.name)} ${p.dim(job.id)}: ${result.previousState} → due now.`,
  });
}
