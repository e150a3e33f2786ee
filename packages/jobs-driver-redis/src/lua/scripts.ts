import type { LuaScript } from '../lua-script.js';
import { ACK_SCRIPT } from './ack.lua.js';
import { ACK_MANY_SCRIPT } from './ack-many.lua.js';
import { ATTEMPT_ERROR_RECORD_SCRIPT } from './attempt-error-record.lua.js';
import { BACKFILL_RECORD_SCRIPT } from './backfill-record.lua.js';
import { CLAIM_SCRIPT } from './claim.lua.js';
import { CLAIM_FAIR_SCRIPT } from './claim-fair.lua.js';
import { ENQUEUE_SCRIPT } from './enqueue.lua.js';
import { EVENT_FIND_SCRIPT } from './event-find.lua.js';
import { EVENT_PUBLISH_SCRIPT } from './event-publish.lua.js';
import { EVENT_PURGE_SCRIPT } from './event-purge.lua.js';
import { HEARTBEAT_SCRIPT } from './heartbeat.lua.js';
import { JOB_CANCEL_SCRIPT } from './job-cancel.lua.js';
import { JOB_GET_SCRIPT } from './job-get.lua.js';
import { JOB_LIST_SCRIPT } from './job-list.lua.js';
import { JOB_PROMOTE_SCRIPT } from './job-promote.lua.js';
import { JOB_REMOVE_SCRIPT } from './job-remove.lua.js';
import { JOB_RETRY_SCRIPT } from './job-retry.lua.js';
import { LEASE_ACQUIRE_SCRIPT } from './lease-acquire.lua.js';
import { LEASE_HOLDERS_SCRIPT } from './lease-holders.lua.js';
import { LEASE_RELEASE_SCRIPT } from './lease-release.lua.js';
import { LEASE_RENEW_SCRIPT } from './lease-renew.lua.js';
import { NACK_SCRIPT } from './nack.lua.js';
import { PROGRESS_SCRIPT } from './progress.lua.js';
import { PURGE_SCRIPT } from './purge.lua.js';
import { QUEUE_PAUSE_SCRIPT } from './queue-pause.lua.js';
import { RATE_LIMIT_TAKE_SCRIPT } from './rate-limit-take.lua.js';
import { SCHEDULE_ADVANCE_SCRIPT } from './schedule-advance.lua.js';
import { SCHEDULE_PAUSE_SCRIPT } from './schedule-pause.lua.js';
import { START_SCRIPT } from './start.lua.js';
import { STATS_SCRIPT } from './stats.lua.js';
import { STEP_RESOLVE_SCRIPT } from './step-resolve.lua.js';
import { STEP_SAVE_SCRIPT } from './step-save.lua.js';
import { WORKER_LIST_SCRIPT } from './worker-list.lua.js';
import { WORKER_REMOVE_SCRIPT } from './worker-remove.lua.js';
import { WORKER_REPORT_SCRIPT } from './worker-report.lua.js';

/**
 * Every script the driver runs, by name: what it preloads with SCRIPT LOAD, and what an operator
 * reads (`REDIS_SCRIPTS.claim.lua`) to see exactly what runs on the server.
 */
export const REDIS_SCRIPTS = {
  enqueue: ENQUEUE_SCRIPT,
  claim: CLAIM_SCRIPT,
  'claim-fair': CLAIM_FAIR_SCRIPT,
  start: START_SCRIPT,
  ack: ACK_SCRIPT,
  'ack-many': ACK_MANY_SCRIPT,
  nack: NACK_SCRIPT,
  'attempt-error-record': ATTEMPT_ERROR_RECORD_SCRIPT,
  heartbeat: HEARTBEAT_SCRIPT,
  progress: PROGRESS_SCRIPT,
  stats: STATS_SCRIPT,
  'step-save': STEP_SAVE_SCRIPT,
  'step-resolve': STEP_RESOLVE_SCRIPT,
  'job-get': JOB_GET_SCRIPT,
  'job-list': JOB_LIST_SCRIPT,
  'job-retry': JOB_RETRY_SCRIPT,
  'job-cancel': JOB_CANCEL_SCRIPT,
  'job-remove': JOB_REMOVE_SCRIPT,
  'job-promote': JOB_PROMOTE_SCRIPT,
  'queue-pause': QUEUE_PAUSE_SCRIPT,
  purge: PURGE_SCRIPT,
  'event-publish': EVENT_PUBLISH_SCRIPT,
  'event-find': EVENT_FIND_SCRIPT,
  'event-purge': EVENT_PURGE_SCRIPT,
  'worker-report': WORKER_REPORT_SCRIPT,
  'worker-remove': WORKER_REMOVE_SCRIPT,
  'worker-list': WORKER_LIST_SCRIPT,
  'lease-acquire': LEASE_ACQUIRE_SCRIPT,
  'lease-renew': LEASE_RENEW_SCRIPT,
  'lease-release': LEASE_RELEASE_SCRIPT,
  'lease-holders': LEASE_HOLDERS_SCRIPT,
  'rate-limit-take': RATE_LIMIT_TAKE_SCRIPT,
  'schedule-advance': SCHEDULE_ADVANCE_SCRIPT,
  'schedule-pause': SCHEDULE_PAUSE_SCRIPT,
  'backfill-record': BACKFILL_RECORD_SCRIPT,
} as const satisfies Record<string, LuaScript>;

/** The name of one of {@link REDIS_SCRIPTS}. */
export type RedisScriptName = keyof typeof REDIS_SCRIPTS;
