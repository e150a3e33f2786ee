import type { JsonValue } from '../values/json.js';
import type { AskedStep } from './replay-history.js';

/**
 * How the check answers one step call: a promise of the recorded output, one that never settles
 * (the replay stops there), or one rejected once the check has its verdict.
 */
export type AskStep = (asked: AskedStep) => Promise<JsonValue>;

/**
 * A step API that answers from the history through `ask` and runs nothing: `run`, `sleep`,
 * `sleepUntil`, `waitForEvent` and `invoke`, each compared when it is **called** (call order, as
 * the executor takes positions). A method it does not know (a step kind added later) ends the
 * check through `unsupported` instead of a TypeError.
 */
export function replayStepApi(ask: AskStep, unsupported: (method: string) => Promise<never>): object {
  const api: Record<string, unknown> = {
    run: (name: string) => ask({ name, kind: 'run' }),
    sleep: async (nameOrDuration: unknown, duration?: unknown) => {
      const name = duration === undefined ? `sleep:${String(nameOrDuration)}` : String(nameOrDuration);
      await ask({ name, kind: 'sleep' });
    },
    sleepUntil: async (name: string) => {
      await ask({ name, kind: 'sleep' });
    },
    waitForEvent: async (
      name: string,
      _event: string,
      options?: { schema?: { safeParse(v: unknown): unknown } },
    ) => {
      const output = await ask({ name, kind: 'waitForEvent' });
      if (output === null || typeof output !== 'object' || Array.isArray(output)) return null;
      const payload = (output as { payload?: JsonValue }).payload ?? null;
      const checked = options?.schema?.safeParse(payload) as { success: boolean; data?: unknown } | undefined;
      return checked?.success === true ? checked.data : payload;
    },
    // The child's recorded result; its input is not checked (a replay enqueues nothing).
    invoke: (name: string) => ask({ name, kind: 'invoke' }),
  };
  return new Proxy(api, {
    get(target, property) {
      if (typeof property === 'string' && !(property in target)) {
        return () => unsupported(property);
      }
      return Reflect.get(target, property);
    },
  });
}
