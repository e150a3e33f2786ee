import {
  type AnyJobHandle,
  type Duration,
  type EnqueueOptions,
  type JsonValue,
  setJobDriver,
} from '@x/jobs-core';
import type { Command } from 'commander';
import { runBootHook } from '../app-module/boot-hook.js';
import { loadAppModule } from '../app-module/load-app-module.js';
import { type BackendFlags, chooseBackend } from '../backend/backend-choice.js';
import { withBackend } from '../backend/open-backend.js';
import type { CommandContext } from '../command-context.js';
import {
  addBackendOptions,
  addJsonOption,
  addModuleOption,
  type JsonFlag,
  type ModuleFlag,
} from '../command-options.js';
import { usageError } from '../errors.js';
import { Printer } from '../output/printer.js';
import { integerOption } from '../parse-integer.js';
import { examples } from './operate.js';

/** The `--json` shape of `x-jobs enqueue`. */
export interface EnqueueJson {
  readonly job: string;
  readonly queue: string;
  readonly id: string;
  readonly runId: string;
  /** True when a live row with the same key already existed; `id` is that row's. */
  readonly deduped: boolean;
}

interface EnqueueFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly input?: string;
  readonly tenant?: string;
  readonly delay?: string;
  readonly priority?: number;
}

const USAGE = "x-jobs enqueue <job> --module <file> --input '<json>'";

const parsePriority = integerOption(-(2 ** 31), 2 ** 31 - 1, 'Expected a whole number, e.g. --priority 10.');

function parseInput(text: string | undefined): JsonValue {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw usageError(`--input is not valid JSON: ${text}`, {
      usage: USAGE,
      hint: `Quote it for the shell: --input '{"orgId":"…"}'`,
    });
  }
}

function findHandle(registry: { jobs(): readonly AnyJobHandle[] }, name: string): AnyJobHandle {
  const handle = registry.jobs().find((candidate) => candidate.name === name);
  if (handle !== undefined) return handle;
  const known = registry.jobs().map((candidate) => candidate.name);
  throw usageError(`The module registers no job named '${name}'.`, {
    usage: USAGE,
    hint: known.length === 0 ? 'It registers no jobs at all.' : `Registered jobs: ${known.join(', ')}`,
  });
}

/**
 * `x-jobs enqueue <job> --input '<json>' --module <file>`: enqueues through the module's own
 * handle, so its schema validates the input (`X_JOB_INPUT_INVALID`), its `idempotencyKey` and
 * `tenant` derive the key and tenant, and the module's `boot` hook runs first (as for `worker`).
 */
export function registerEnqueue(program: Command, context: CommandContext): void {
  const command = program
    .command('enqueue')
    .description("enqueue a job through the module's own handle (its schema, key and tenant)")
    .argument('<job>', 'the job name (its export name or declared name)')
    .option('--input <json>', 'the input, as JSON (default: {})')
    .option('--tenant <id>', 'the tenant, when the job derives none from its input')
    .option('--delay <duration>', "not before now + this: '500ms', '10s', '5m', '3d'")
    .option('--priority <n>', 'higher runs first', parsePriority)
    .addHelpText(
      'after',
      examples(
        `x-jobs enqueue sendReceipt --module ./dist/jobs.js --input '{"orderId":"o-1"}'`,
        `x-jobs enqueue nudge --module ./dist/jobs.js --input '{"orgId":"…"}' --delay 3d --json`,
      ),
    );
  addJsonOption(addBackendOptions(addModuleOption(command))).action(
    async (name: string, flags: EnqueueFlags) => {
      const printer = new Printer(context.io, { json: flags.json === true });
      const input = parseInput(flags.input);
      const app = await loadAppModule(flags.module ?? '', context.io.cwd);
      const handle = findHandle(app.registry, name);
      const options: EnqueueOptions = {
        ...(flags.tenant === undefined ? {} : { tenantId: flags.tenant }),
        ...(flags.delay === undefined ? {} : { delay: flags.delay as Duration }),
        ...(flags.priority === undefined ? {} : { priority: flags.priority }),
      };
      const choice = chooseBackend(flags, context.io.cwd);
      const data = await withBackend(choice, async (backend) => {
        setJobDriver(backend.driver);
        const booted = await runBootHook(app.namespace, { driver: backend.driver, backend: choice.kind });
        try {
          const result = await handle.enqueue(input, options);
          return { job: handle.name, queue: handle.describe().queue, ...result } satisfies EnqueueJson;
        } finally {
          await booted.close?.();
        }
      });
      printer.result(data, (shown, p) =>
        shown.deduped
          ? `${p.yellow('Deduped')}: a live ${p.bold(shown.job)} with that key exists: ${shown.id}`
          : `${p.green('Enqueued')} ${p.bold(shown.job)} ${shown.id} on queue ${shown.queue}`,
      );
    },
  );
}
