import type { BackendClock, QueueSettings } from '@x/jobs-core/driver';
import type { KeySpace } from './key-space.js';
import type { LuaScript } from './lua-script.js';
import type { RedisClient } from './redis-client.js';
import type { RedisConnection } from './redis-connection.js';
import type { DynamicKeys, ScriptRunner } from './script-runner.js';

/** What every part of the driver (queue, steps, events, introspection, leases, …) shares. */
export interface DriverContext {
  readonly connection: RedisConnection;
  readonly scripts: ScriptRunner;
  readonly keys: KeySpace;
  readonly clock: BackendClock;
  /** Retention of done rows in ms; 0 keeps them. */
  readonly doneTtlMs: number;
  /** The `queues` option, parsed: which queues claim with the claim-fair script. */
  readonly queues: QueueSettings;
}

/** Runs one script as the driver operation `operation`: guarded, with errors classified. */
export function callScript(
  context: DriverContext,
  operation: string,
  script: LuaScript,
  args: readonly (string | number)[],
  dynamic?: DynamicKeys,
): Promise<unknown> {
  return context.connection.run(operation, () => context.scripts.run(script, args, dynamic));
}

/** Runs a script that answers 1 (it landed) or 0 (fenced out, absent, refused) as a boolean. */
export async function callFlag(
  context: DriverContext,
  operation: string,
  script: LuaScript,
  args: readonly (string | number)[],
): Promise<boolean> {
  return (await callScript(context, operation, script, args)) === 1;
}

/** Runs plain commands (single-command reads) as the driver operation `operation`. */
export function callClient<T>(
  context: DriverContext,
  operation: string,
  fn: (client: RedisClient) => Promise<T>,
): Promise<T> {
  return context.connection.run(operation, () => fn(context.connection.client));
}
