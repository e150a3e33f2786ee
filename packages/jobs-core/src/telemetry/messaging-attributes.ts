/**
 * Span attributes named by the OpenTelemetry messaging semantic conventions, set beside the
 * `x_jobs.*` ones: a queue is the destination, a job row is the message.
 */

/** `messaging.system` on every @x/jobs span. */
export const MESSAGING_SYSTEM = 'x-jobs';

/** What the conventions' attributes are built from: the fields a request and a claimed row share. */
export interface MessageFields {
  readonly id: string;
  readonly runId: string;
  readonly name: string;
  readonly queue: string;
}

/** The enqueue's span attributes (`messaging.operation.type` = `send`, name `enqueue`). */
export function producerAttributes(message: MessageFields): Record<string, string> {
  return {
    'messaging.system': MESSAGING_SYSTEM,
    'messaging.destination.name': message.queue,
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'enqueue',
    'messaging.message.id': message.id,
    'x_jobs.job.id': message.id,
    'x_jobs.job.name': message.name,
    'x_jobs.queue': message.queue,
    'x_jobs.run_id': message.runId,
  };
}

/** An attempt's span attributes (`messaging.operation.type` = `process`, name `run`). */
export function consumerAttributes(
  message: MessageFields & { readonly attempt: number },
): Record<string, string | number> {
  return {
    'messaging.system': MESSAGING_SYSTEM,
    'messaging.destination.name': message.queue,
    'messaging.operation.type': 'process',
    'messaging.operation.name': 'run',
    'messaging.message.id': message.id,
    'x_jobs.job.id': message.id,
    'x_jobs.job.name': message.name,
    'x_jobs.queue': message.queue,
    'x_jobs.attempt': message.attempt,
    'x_jobs.run_id': message.runId,
  };
}
