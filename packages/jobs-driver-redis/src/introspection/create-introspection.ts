import type {
  JobDetail,
  JobIntrospection,
  JobListQuery,
  JobPage,
  StepResolution,
  WorkerInfo,
} from '@x/jobs-core';
import { callClient, callFlag, callScript, type DriverContext } from '../driver-context.js';
import { decodeAttemptErrors, decodeJobRecord, hashFromFlat } from '../job-codec.js';
import { JOB_CANCEL_SCRIPT } from '../lua/job-cancel.lua.js';
import { JOB_GET_SCRIPT } from '../lua/job-get.lua.js';
import { JOB_LIST_SCRIPT } from '../lua/job-list.lua.js';
import { JOB_PROMOTE_SCRIPT } from '../lua/job-promote.lua.js';
import { JOB_REMOVE_SCRIPT } from '../lua/job-remove.lua.js';
import { JOB_RETRY_SCRIPT } from '../lua/job-retry.lua.js';
import { PURGE_BATCH, PURGE_SCRIPT } from '../lua/purge.lua.js';
import { QUEUE_PAUSE_SCRIPT } from '../lua/queue-pause.lua.js';
import { STEP_RESOLVE_SCRIPT } from '../lua/step-resolve.lua.js';
import { WORKER_LIST_SCRIPT } from '../lua/worker-list.lua.js';
import { WORKER_REMOVE_SCRIPT } from '../lua/worker-remove.lua.js';
import { WORKER_REPORT_SCRIPT } from '../lua/worker-report.lua.js';
import type { LuaScript } from '../lua-script.js';
import { optionalArg } from '../optional-arg.js';
import { decodeSteps, encodeStepBody } from '../step-codec.js';

/** Default and largest page of {@link JobIntrospection.list}. */
const LIST_DEFAULT = 50;
const LIST_MAX = 1000;

/** Operator capabilities over the key space: every change is one script, reads are one round trip. */
export function redisIntrospection(context: DriverContext): JobIntrospection {
  const flag = (operation: string, script: LuaScript, args: (string | number)[]) =>
    callFlag(context, operation, script, args);
  return {
    async list(query: JobListQuery = {}): Promise<JobPage> {
      const limit = Math.min(Math.max(Math.floor(query.limit ?? LIST_DEFAULT), 1), LIST_MAX);
      const [cursor, rows] = (await callScript(context, 'introspect.list', JOB_LIST_SCRIPT, [
        query.cursor ?? '',
        limit,
        optionalArg(query.queue),
        optionalArg(query.state),
        optionalArg(query.name),
        optionalArg(query.tenantId),
      ])) as [string, unknown[][]];
      return {
        jobs: rows.map((flat) => decodeJobRecord(hashFromFlat(flat))),
        nextCursor: cursor === '' ? null : cursor,
      };
    },
    async get(id: string): Promise<JobDetail | null> {
      const reply = (await callScript(context, 'introspect.get', JOB_GET_SCRIPT, [id])) as
        | [unknown[], unknown[]]
        | null;
      if (reply === null) return null;
      const hash = hashFromFlat(reply[0]);
      return { ...decodeJobRecord(hash), steps: decodeSteps(reply[1]), errors: decodeAttemptErrors(hash) };
    },
    retry: (id, options = {}) =>
      flag('introspect.retry', JOB_RETRY_SCRIPT, [id, optionalArg(options.fromStep)]),
    cancel: (id, reason) => flag('introspect.cancel', JOB_CANCEL_SCRIPT, [id, optionalArg(reason)]),
    remove: (id) => flag('introspect.remove', JOB_REMOVE_SCRIPT, [id]),
    promote: (id) => flag('introspect.promote', JOB_PROMOTE_SCRIPT, [id]),
    async pause(queue: string): Promise<void> {
      await callScript(context, 'introspect.pause', QUEUE_PAUSE_SCRIPT, [queue, '1']);
    },
    async resume(queue: string): Promise<void> {
      await callScript(context, 'introspect.resume', QUEUE_PAUSE_SCRIPT, [queue, '0']);
    },
    async pausedQueues(): Promise<readonly string[]> {
      const queues = await callClient(context, 'introspect.pausedQueues', (client) =>
        client.smembers(context.keys.paused),
      );
      return queues.sort();
    },
    resolveStep: (jobId: string, step: string, resolution: StepResolution) =>
      flag('introspect.resolveStep', STEP_RESOLVE_SCRIPT, [
        jobId,
        step,
        resolution.ran ? '1' : '0',
        resolution.ran ? encodeStepBody({ name: step, output: resolution.output, error: null }) : '',
      ]),
    async reportWorker(info: WorkerInfo, ttlMs: number): Promise<void> {
      await callScript(context, 'introspect.reportWorker', WORKER_REPORT_SCRIPT, [
        info.id,
        JSON.stringify(info),
        Math.round(info.lastSeenAt + ttlMs),
      ]);
    },
    async removeWorker(id: string): Promise<void> {
      await callScript(context, 'introspect.removeWorker', WORKER_REMOVE_SCRIPT, [id]);
    },
    async workers(): Promise<readonly WorkerInfo[]> {
      const reports = (await callScript(context, 'introspect.workers', WORKER_LIST_SCRIPT, [])) as (
        | string
        | null
      )[];
      return reports
        .filter((report): report is string => report !== null)
        .map((report) => JSON.parse(report) as WorkerInfo)
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    async purge(options: { readonly doneBefore: number }): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = Number(
          await callScript(context, 'introspect.purge', PURGE_SCRIPT, [Math.ceil(options.doneBefore)]),
        );
        total += deleted;
        if (deleted < PURGE_BATCH) return total;
      }
    },
  };
}
