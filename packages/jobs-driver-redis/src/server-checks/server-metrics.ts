import { metrics } from '@opentelemetry/api';

/** The meter name of @x/jobs-driver-redis's instruments. */
export const REDIS_METER_NAME = '@x/jobs-driver-redis';

/**
 * Counts one server found empty of the driver's data (its marker gone) into
 * `redis_server_data_lost_total{prefix, restarted}` (a no-op without an OpenTelemetry SDK).
 */
export function countDataLost(prefix: string, restarted: boolean): void {
  metrics
    .getMeter(REDIS_METER_NAME)
    .createCounter('redis_server_data_lost_total', {
      description:
        'Times a Redis server answered without the driver marker: acknowledged jobs were lost (restart without persistence, flush or eviction).',
    })
    .add(1, { prefix, restarted });
}
