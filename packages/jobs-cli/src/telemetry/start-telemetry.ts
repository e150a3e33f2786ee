import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { importOptional } from '../backend/import-optional.js';

/** Where telemetry goes: nowhere (the API stays a no-op), the console, or OTLP as `OTEL_*` env configures. */
export const TELEMETRY_EXPORTERS = ['none', 'console', 'otlp'] as const;

/** A `--otel` value. */
export type TelemetryExporter = (typeof TELEMETRY_EXPORTERS)[number];

/** Options of {@link startTelemetry}. */
export interface TelemetryOptions {
  readonly exporter: TelemetryExporter;
  /** `service.name` on every span and metric. (Default: 'x-jobs') */
  readonly serviceName?: string;
  /** How often metrics are exported, in ms (console and OTLP). (Default: 10_000) */
  readonly metricIntervalMs?: number;
  /** Replaces the exporter's span processors (tests pass an in-memory exporter). */
  readonly spanProcessors?: NodeSDKConfiguration['spanProcessors'];
  /** Replaces the exporter's metric readers (tests pass an in-memory reader). */
  readonly metricReaders?: NodeSDKConfiguration['metricReaders'];
}

/** A started SDK. */
export interface Telemetry {
  readonly exporter: TelemetryExporter;
  /** Flushes what is buffered and stops exporting. Safe to call twice. */
  shutdown(): Promise<void>;
}

/**
 * Starts `@opentelemetry/sdk-node` so the spans and metrics @x/jobs-core records through
 * `@opentelemetry/api` go somewhere. `none` loads nothing (the SDK, an optional peer, is imported
 * on demand, so commands that do not ask for telemetry never pay for it; missing, it is
 * `X_CLI_PACKAGE_MISSING` naming `@opentelemetry/sdk-node`). `console` prints spans as they end
 * and metrics every interval to stdout; `otlp` leaves exporter, endpoint and protocol to the
 * standard `OTEL_*` environment variables (default OTLP/HTTP protobuf to localhost:4318).
 * Auto-instrumentations are off: only @x/jobs' own spans are recorded.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  if (
    options.exporter === 'none' &&
    options.spanProcessors === undefined &&
    options.metricReaders === undefined
  ) {
    return { exporter: 'none', shutdown: async () => undefined };
  }
  // An optional peer: installed only by apps that export telemetry.
  const { NodeSDK, metrics, tracing } = await importOptional(() => import('@opentelemetry/sdk-node'), {
    code: 'X_CLI_PACKAGE_MISSING',
    packages: ['@opentelemetry/sdk-node'],
    purpose: `--otel ${options.exporter}`,
  });
  const interval = options.metricIntervalMs ?? 10_000;
  const consoleSetup =
    options.exporter === 'console'
      ? {
          spanProcessors: [new tracing.SimpleSpanProcessor(new tracing.ConsoleSpanExporter())],
          metricReaders: [
            new metrics.PeriodicExportingMetricReader({
              exporter: new metrics.ConsoleMetricExporter(),
              exportIntervalMillis: interval,
            }),
          ],
          logRecordProcessors: [],
        }
      : {};
  const sdk = new NodeSDK({
    serviceName: options.serviceName ?? 'x-jobs',
    instrumentations: [],
    ...consoleSetup,
    ...(options.spanProcessors === undefined ? {} : { spanProcessors: options.spanProcessors }),
    ...(options.metricReaders === undefined ? {} : { metricReaders: options.metricReaders }),
    ...(options.exporter === 'otlp' ? {} : { logRecordProcessors: [] }),
  });
  sdk.start();
  let stopped: Promise<void> | undefined;
  return {
    exporter: options.exporter,
    shutdown() {
      stopped ??= sdk.shutdown();
      return stopped;
    },
  };
}
