import type { RedisClient } from '../redis-client.js';

/** What the driver reads about a server at connect. Unknown facts are null (CONFIG may be disabled). */
export interface ServerFacts {
  /** `INFO server` run_id: changes on every restart of the server process. */
  readonly runId: string | null;
  /** `INFO memory` maxmemory_policy, e.g. `noeviction`, `allkeys-lru`. */
  readonly maxmemoryPolicy: string | null;
  /** `INFO persistence` aof_enabled. */
  readonly aofEnabled: boolean | null;
  /** `CONFIG GET save` is not empty: RDB snapshots are scheduled. Null when CONFIG is refused. */
  readonly rdbEnabled: boolean | null;
}

/** Reads {@link ServerFacts} with one `INFO` and one `CONFIG GET save` (its failure leaves `rdbEnabled` null). */
export async function readServerFacts(client: RedisClient): Promise<ServerFacts> {
  const [info, save] = await Promise.all([
    client.info(),
    client.config('GET', 'save').then(
      (reply) => reply as unknown as string[],
      () => null,
    ),
  ]);
  const fields = parseInfo(String(info));
  const aof = fields.get('aof_enabled');
  return {
    runId: fields.get('run_id') ?? null,
    maxmemoryPolicy: fields.get('maxmemory_policy') ?? null,
    aofEnabled: aof === undefined ? null : aof === '1',
    rdbEnabled: Array.isArray(save) && save.length >= 2 ? String(save[1]).trim() !== '' : null,
  };
}

/** `INFO` text → field map (`# Section` headers and blank lines skipped). */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0 || line.startsWith('#')) continue;
    fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}
