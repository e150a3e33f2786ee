/**
 * Starts the OpenTelemetry SDK when the standard environment asks for it
 * (`OTEL_TRACES_EXPORTER=console`, or `otlp` with `OTEL_EXPORTER_OTLP_ENDPOINT`; metrics too with
 * `OTEL_METRICS_EXPORTER`): what @x/jobs-core records through `@opentelemetry/api` then goes there. Answers the shutdown
 * (flushes), or a no-op when telemetry is off.
 */
export async function startDemoTelemetry(
  env: Readonly<Record<string, string | undefined>>,
): Promise<() => Promise<void>> {
  if (env.OTEL_TRACES_EXPORTER === undefined || env.OTEL_TRACES_EXPORTER === 'none')
    return async () => undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: 'x-jobs-demo',
    instrumentations: [],
    logRecordProcessors: [],
    // Metrics only when asked for too: the SDK would otherwise default to pushing OTLP.
    ...(env.OTEL_METRICS_EXPORTER === undefined ? { metricReaders: [] } : {}),
  });
  sdk.start();
  return () => sdk.shutdown();
}
