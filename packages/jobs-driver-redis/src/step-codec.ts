import type { JobErrorRecord, JsonValue, StepRecord, StepStatus } from '@x/jobs-core';
import { redisError } from './errors.js';

/** The JSON part of a stored step: what no script ever needs to compare. */
interface StepBody {
  readonly name: string;
  readonly output: JsonValue;
  readonly error: JobErrorRecord | null;
}

/** The JSON body a script stores after the step's tab-separated head. */
export function encodeStepBody(step: Pick<StepRecord, 'name' | 'output' | 'error'>): string {
  const body: StepBody = { name: step.name, output: step.output ?? null, error: step.error ?? null };
  return JSON.stringify(body);
}

/** Reads `<position>\t<startedAt>\t<status>\t<completedAt>\t<body JSON>` (see the step-encoding fragment). */
export function decodeStep(value: string): StepRecord {
  const parts = value.split('\t');
  if (parts.length < 5) throw redisError('X_REDIS_REPLY_INVALID', 'A stored step is malformed.');
  const [position, startedAt, status, completedAt] = parts;
  const body = JSON.parse(parts.slice(4).join('\t')) as StepBody;
  return {
    name: body.name,
    position: Number(position),
    status: status as StepStatus,
    output: body.output,
    error: body.error,
    startedAt: Number(startedAt),
    completedAt: completedAt === '' || completedAt === undefined ? null : Number(completedAt),
  };
}

/** Decodes a run's stored steps, ordered by position. */
export function decodeSteps(values: readonly unknown[]): StepRecord[] {
  return values.map((value) => decodeStep(String(value))).sort((a, b) => a.position - b.position);
}
