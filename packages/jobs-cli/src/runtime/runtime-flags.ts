import { type Command, InvalidArgumentError, Option } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import type { JsonFlag, ModuleFlag } from '../command-options.js';
import { TELEMETRY_EXPORTERS, type TelemetryExporter } from '../telemetry/start-telemetry.js';

/** The flags of `worker`, `scheduler` and `dev` as parsed. */
export interface RuntimeFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly otel?: TelemetryExporter;
  readonly queues?: readonly string[];
  readonly concurrency?: number;
  readonly once?: boolean;
  readonly healthPort?: number;
}

/** Adds `--otel <none|console|otlp>` (env `X_JOBS_OTEL`). */
export function addTelemetryOption(command: Command): Command {
  return command.addOption(
    new Option('--otel <exporter>', 'OpenTelemetry export: none, console, or otlp (configured by OTEL_* env)')
      .choices(TELEMETRY_EXPORTERS)
      .env('X_JOBS_OTEL'),
  );
}

/** Adds the worker's `--queues` and `--concurrency`. */
export function addWorkerOptions(command: Command): Command {
  return command
    .option(
      '--queues <list>',
      'comma-separated queues to claim from (default: every queue of the registered jobs)',
      parseQueues,
    )
    .option('--concurrency <n>', 'slots per queue, 1-1000 (default: 10)', parseConcurrency)
    .addOption(
      new Option('--health-port <port>', 'serve GET /livez and /readyz for probes on this port')
        .argParser(parsePort)
        .env('X_JOBS_HEALTH_PORT'),
    );
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new InvalidArgumentError('Expected a port from 1 to 65535, e.g. --health-port 9464.');
  }
  return port;
}

function parseQueues(value: string): readonly string[] {
  const queues = value
    .split(',')
    .map((queue) => queue.trim())
    .filter((queue) => queue !== '');
  if (queues.length === 0)
    throw new InvalidArgumentError('Expected queue names separated by commas, e.g. --queues default,emails.');
  return queues;
}

function parseConcurrency(value: string): number {
  const concurrency = Number(value);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
    throw new InvalidArgumentError('Expected a whole number from 1 to 1000, e.g. --concurrency 10.');
  }
  return concurrency;
}
