import type { JsonValue, StepResolution } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { cliError, usageError } from '../errors.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs resolve-step`. */
export interface ResolveStepJson {
  readonly id: string;
  readonly step: string;
  /** `ran`: recorded completed with the output given; `not-ran`: deleted, so the next attempt runs it. */
  readonly resolution: 'ran' | 'not-ran';
}

interface ResolveFlags extends BackendFlags, JsonFlag {
  readonly ran?: boolean;
  readonly notRan?: boolean;
  readonly output?: string;
}

const USAGE = 'x-jobs resolve-step <id> <step> (--ran --output <json> | --not-ran)';

/** Reads the flags into a resolution, or a usage error that says which form to type. */
export function parseResolution(flags: Pick<ResolveFlags, 'ran' | 'notRan' | 'output'>): StepResolution {
  if (flags.ran === true && flags.notRan === true) {
    throw usageError('--ran and --not-ran contradict each other; pass one.', { usage: USAGE });
  }
  if (flags.ran === true) {
    if (flags.output === undefined) {
      throw usageError('--ran needs --output <json>: the value the step produced, as JSON.', {
        usage: USAGE,
        hint: `Example: --ran --output '{"chargeId":"ch_123"}' (or --output null)`,
      });
    }
    let output: JsonValue;
    try {
      output = JSON.parse(flags.output) as JsonValue;
    } catch {
      throw usageError(`--output is not valid JSON: ${flags.output}`, {
        usage: USAGE,
        hint: `Quote it for the shell: --output '{"chargeId":"ch_123"}', --output '"text"', --output null`,
      });
    }
    return { ran: true, output };
  }
  if (flags.notRan === true) {
    if (flags.output !== undefined) {
      throw usageError('--output goes with --ran only: a step that did not run has no output.', {
        usage: USAGE,
      });
    }
    return { ran: false };
  }
  throw usageError('Say whether the step ran: --ran --output <json>, or --not-ran.', { usage: USAGE });
}

/** `x-jobs resolve-step`: settles a `once` step a crash left `started` (X_STEP_OUTCOME_UNKNOWN). */
export function registerResolveStep(program: Command, context: CommandContext): void {
  const command = program
    .command('resolve-step')
    .description('resolve a once-step left started by a crash: it ran (with its output) or it did not')
    .argument('<id>', 'job id')
    .argument('<step>', 'step name')
    .option('--ran', 'the side effect happened; record the step completed')
    .option('--output <json>', 'with --ran: the step output to record, as JSON')
    .option('--not-ran', 'the side effect did not happen; the next attempt runs the step')
    .addHelpText(
      'after',
      examples(
        `x-jobs resolve-step 0193a6c2-… charge --ran --output '{"chargeId":"ch_123"}'`,
        'x-jobs resolve-step 0193a6c2-… charge --not-ran',
      ),
    );
  addJsonOption(addBackendOptions(command)).action(async (id: string, step: string, flags: ResolveFlags) => {
    const resolution = parseResolution(flags);
    await operate(context, flags, async (backend, printer) => {
      const introspect = requireIntrospection(backend.driver);
      const job = await findJob(introspect, id);
      const record = job.steps.find((candidate) => candidate.name === step);
      if (record === undefined) {
        throw cliError('X_CLI_STEP_NOT_FOUND', `Job '${id}' has no recorded step named '${step}'.`, {
          id,
          step,
          ...(job.steps.length === 0
            ? {}
            : { hint: `Recorded steps: ${job.steps.map((s) => s.name).join(', ')}` }),
        });
      }
      const notStarted = (): never => {
        throw cliError(
          'X_CLI_STEP_NOT_STARTED',
          `Step '${step}' of job '${id}' is ${record.status}, not started: there is nothing to resolve.`,
          { id, step, status: record.status },
        );
      };
      if (record.status !== 'started') notStarted();
      if (!(await introspect.resolveStep(id, step, resolution))) notStarted();
      const data: ResolveStepJson = { id, step, resolution: resolution.ran ? 'ran' : 'not-ran' };
      printer.result(data, (result, p) => {
        const what =
          result.resolution === 'ran'
            ? `as completed; replays answer the output you gave.`
            : 'as not run; the next attempt runs it.';
        const next =
          job.state === 'dead' ? `\n${p.dim(`The job is dead; to run it again: x-jobs retry ${id}`)}` : '';
        return `${p.green('Resolved')} step '${step}' ${what}${next}`;
      });
    });
  });
}
