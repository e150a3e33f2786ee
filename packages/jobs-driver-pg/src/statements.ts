import { bindSchema } from './schema-name.js';
import { SQL_ACK, SQL_ACK_DROP, SQL_ACK_MANY, SQL_ACK_MANY_DROP } from './sql/ack.sql.js';
import { SQL_ATTEMPT_ERROR_RECORD } from './sql/attempt-error.sql.js';
import { SQL_CLAIM } from './sql/claim.sql.js';
import { SQL_CLAIM_FAIR, SQL_CLAIM_FAIR_LOCK, SQL_CLAIM_FAIR_OPEN } from './sql/claim-fair.sql.js';
import { SQL_ENQUEUE, SQL_ENQUEUE_MANY, SQL_ENQUEUE_READBACK } from './sql/enqueue.sql.js';
import { SQL_EVENT_FIND, SQL_EVENT_PUBLISH } from './sql/event-publish.sql.js';
import { SQL_HEARTBEAT } from './sql/heartbeat.sql.js';
import { SQL_CANCEL, SQL_RETRY_MOVE } from './sql/history-move.sql.js';
import {
  SQL_NACK_DEAD,
  SQL_NACK_RELEASE,
  SQL_NACK_RELEASE_MANY,
  SQL_NACK_RETRY,
  SQL_NACK_SUSPEND,
} from './sql/nack.sql.js';
import { SQL_NOTIFY } from './sql/notify.sql.js';
import { SQL_PROGRESS } from './sql/progress.sql.js';
import { SQL_PURGE_DONE } from './sql/purge.sql.js';
import { SQL_RATE_LIMIT_TAKE } from './sql/rate-limit-take.sql.js';
import { SQL_START, SQL_START_MANY } from './sql/start.sql.js';
import { SQL_STATS } from './sql/stats.sql.js';
import { SQL_STEP_SAVE, SQL_STEP_SAVE_MANY } from './sql/step-save.sql.js';

/**
 * Every verbatim statement with the schema substituted, computed once per driver. With
 * `keepDone: false` (`retention: { done: 0 }`) the acks delete rows instead of moving them to
 * `job_history`, and `ackTakesResult` is false (no result is stored, so none is sent).
 */
export function bindStatements(schema: string, options: { readonly keepDone: boolean } = { keepDone: true }) {
  const bind = (statement: string): string => bindSchema(statement, schema);
  return {
    ackTakesResult: options.keepDone,
    claim: bind(SQL_CLAIM),
    claimFair: bind(SQL_CLAIM_FAIR),
    claimFairLock: bind(SQL_CLAIM_FAIR_LOCK),
    claimFairOpen: bind(SQL_CLAIM_FAIR_OPEN),
    start: bind(SQL_START),
    startMany: bind(SQL_START_MANY),
    enqueue: bind(SQL_ENQUEUE),
    enqueueMany: bind(SQL_ENQUEUE_MANY),
    enqueueReadback: bind(SQL_ENQUEUE_READBACK),
    ack: bind(options.keepDone ? SQL_ACK : SQL_ACK_DROP),
    ackMany: bind(options.keepDone ? SQL_ACK_MANY : SQL_ACK_MANY_DROP),
    cancel: bind(SQL_CANCEL),
    retryMove: bind(SQL_RETRY_MOVE),
    nackRetry: bind(SQL_NACK_RETRY),
    nackRelease: bind(SQL_NACK_RELEASE),
    nackReleaseMany: bind(SQL_NACK_RELEASE_MANY),
    nackSuspend: bind(SQL_NACK_SUSPEND),
    nackDead: bind(SQL_NACK_DEAD),
    attemptErrorRecord: bind(SQL_ATTEMPT_ERROR_RECORD),
    heartbeat: bind(SQL_HEARTBEAT),
    progress: bind(SQL_PROGRESS),
    stepSave: bind(SQL_STEP_SAVE),
    stepSaveMany: bind(SQL_STEP_SAVE_MANY),
    eventPublish: bind(SQL_EVENT_PUBLISH),
    eventFind: bind(SQL_EVENT_FIND),
    notify: bind(SQL_NOTIFY),
    stats: bind(SQL_STATS),
    purgeDone: bind(SQL_PURGE_DONE),
    rateLimitTake: bind(SQL_RATE_LIMIT_TAKE),
  } as const;
}

/** The statements of one driver, schema bound. */
export type Statements = ReturnType<typeof bindStatements>;
