import type { z } from 'zod';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { parseDuration } from '../values/duration.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { placeOf, replayOrStart } from './replay-or-start.js';
import type { StepLedger } from './step-ledger.js';
import { StepSuspension } from './step-suspension.js';

/** What a pending wait stores: when it began (events before it do not match) and its deadline. */
interface WaitState {
  readonly since: number;
  readonly deadline: number;
}

/** Options of one `step.waitForEvent`, as the body passed them. */
export interface WaitOptions {
  readonly schema: z.ZodType;
  readonly match?: JsonObject;
  readonly timeout: unknown;
}

/**
 * `step.waitForEvent`: answers the first matching event published since the wait began (parsed by
 * the schema; a payload it refuses is terminal `X_JOB_EVENT_INVALID`), `null` once the deadline
 * passes, else suspends until the deadline or the next poll (`eventPoll`) — `publishEvent` of the
 * event makes the row due at once. A `promote` only makes the row due: the replay looks again and,
 * finding nothing, parks again; only the event (or the timeout) ends a wait.
 */
export async function waitStep(
  ledger: StepLedger,
  name: string,
  event: string,
  options: WaitOptions,
): Promise<unknown> {
  let timeoutMs = 0;
  return replayOrStart(ledger, name, {
    check: () => {
      timeoutMs = parseDuration(options.timeout, `step.waitForEvent('${name}') timeout`);
    },
    replay: (existing) => {
      const stored = existing.output as { payload: JsonValue } | null;
      return stored === null ? null : parseEvent(name, event, options.schema, stored.payload);
    },
    start: (existing) => startWait(ledger, name, event, options, timeoutMs, existing),
  });
}

/** A wait not completed yet: records it once, then looks for the event, times out or suspends. */
async function startWait(
  ledger: StepLedger,
  name: string,
  event: string,
  options: WaitOptions,
  timeoutMs: number,
  existing: StepRecord | undefined,
): Promise<unknown> {
  const now = ledger.now();
  const state = (existing?.output as WaitState | null | undefined) ?? {
    since: now,
    deadline: now + timeoutMs,
  };
  const { position, startedAt } = placeOf(ledger, existing, now);
  if (existing === undefined) {
    await ledger.save({
      name,
      position,
      status: 'started',
      output: { ...state },
      error: null,
      startedAt,
      completedAt: null,
    });
  }
  ledger.executed(name);
  const query = { since: state.since, ...(options.match === undefined ? {} : { match: options.match }) };
  const found = await ledger.options.driver.events.find(event, query);
  if (found !== null) {
    const parsed = parseEvent(name, event, options.schema, found.payload);
    await ledger.save({
      name,
      position,
      status: 'completed',
      output: { payload: found.payload },
      error: null,
      startedAt,
      completedAt: ledger.now(),
    });
    return parsed;
  }
  if (now >= state.deadline) {
    await ledger.save({
      name,
      position,
      status: 'completed',
      output: null,
      error: null,
      startedAt,
      completedAt: now,
    });
    return null;
  }
  throw new StepSuspension(name, Math.min(state.deadline, now + ledger.options.eventPollMs), event);
}

function parseEvent(step: string, event: string, schema: z.ZodType, payload: JsonValue): unknown {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw coreError(
      'X_JOB_EVENT_INVALID',
      `step '${step}': the '${event}' event payload does not match the wait's schema.`,
      {
        step,
        event,
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), code: issue.code })),
      },
    );
  }
  return parsed.data;
}
