/**
 * Every error code @x/jobs-core can throw, with its one-line meaning. Codes are the stable
 * contract: tests and callers branch on them, never on messages.
 */
export const CORE_ERROR_CODES = {
  // Declaration (thrown by job() / defineJobs()).
  X_IDEMPOTENCY_REQUIRED: 'A job was declared without an idempotencyKey function.',
  X_JOB_TENANT_REQUIRED: "A job was declared without tenant: a function of the input, or 'none'.",
  X_JOB_DECLARATION_INVALID:
    'A job definition field has an invalid value (attempts, limit, duration, step name, …).',
  X_JOB_REGISTRATION_INVALID:
    'defineJobs was given something other than module namespaces of job handles (jobs) or task handles (tasks).',
  X_JOB_DUPLICATE:
    'Two things claim one durable job name, or an enqueue met a live row under onConflict: "error".',
  X_DURATION_INVALID:
    "A duration is not a positive number of ms or a string like '500ms', '10s', '5m', '2h', '3d'.",
  // Enqueue.
  X_JOB_INPUT_INVALID:
    "The input does not match the job's schema; the error lists the issue paths and codes.",
  X_JOB_TENANT_MISMATCH: 'An explicit tenantId or the .as() actor contradicts the tenant the input names.',
  X_JOB_ENQUEUE_BATCH_TOO_LARGE: 'enqueueMany was given more than 10,000 inputs.',
  X_JOB_ENQUEUE_OPTIONS_INVALID:
    'An enqueue option is invalid (runAt, delay, priority, tenantId, runId, onConflict, actor).',
  X_JOB_KEY_INVALID:
    'idempotencyKey(input), tenant(input), concurrency.key(input) or rateLimit.key(input) returned something other than a non-empty string (a rate-limit key also at most 512 UTF-8 bytes, storable).',
  X_JOB_UNNAMED:
    'An enqueue through a job handle with no durable name (no name: in its definition, never registered with defineJobs); nothing was written.',
  X_JOB_NOT_A_HANDLE: 'A value passed where a job handle is expected was not made by job().',
  X_DRIVER_UNAVAILABLE:
    'No driver is installed, or the backend cannot be reached right now; nothing was written.',
  X_DRIVER_CLOSED: 'The driver was closed; open a new one.',
  // Configuration (raised when a driver opens; never retryable: fix meta.setting).
  X_DRIVER_DATABASE_MISSING:
    'The database the connection settings name does not exist (PostgreSQL 3D000, a Redis db index out of range); fix meta.setting.',
  X_DRIVER_AUTH_FAILED:
    'The backend refused the credentials (PostgreSQL 28P01/28000, Redis WRONGPASS/NOAUTH); fix meta.setting.',
  X_DRIVER_URL_INVALID: 'The connection URL cannot be parsed or names another protocol; fix meta.setting.',
  X_DRIVER_HOST_UNKNOWN: "The connection settings' host name does not resolve (ENOTFOUND); fix meta.setting.",
  X_JOB_NOT_FOUND: 'No job row has that id.',
  X_JOB_NOT_CANCELLABLE: 'The job already finished, so it cannot be cancelled.',
  // Execution.
  X_STEP_DUPLICATE: 'Two steps in one run share a name; step names are the replay key.',
  X_STEP_OUTPUT_UNSERIALIZABLE: 'A step returned a value JSON cannot hold (a bigint, a cycle).',
  X_STEP_OUTCOME_UNKNOWN: 'A once-step started and never recorded completion; an operator must resolve it.',
  X_JOB_EVENT_INVALID: 'An event payload does not match the waitForEvent schema.',
  X_JOB_TIMEOUT: 'The job or a step exceeded its timeout; its signal was aborted first.',
  X_ABORTED: 'The attempt was aborted (timeout, cancel, drain, lost lease); step writes are refused.',
  X_DRAINING: 'The worker is shutting down; the attempt is handed back uncounted.',
  X_JOB_LEASE_LOST: 'The job was cancelled or its lease lapsed while this worker ran it.',
  X_CURRENT_RUN_DISABLED:
    'currentJobRun() was called after disableCurrentJobRun() turned the ambient run context off.',
  X_JOB_SLOT_LOST: 'The fleet concurrency slot this run held was taken by another worker.',
  X_JOB_CONCURRENCY_BUSY: "The job's fleet concurrency cap is full and it declared whenBusy: 'fail'.",
  X_JOB_CONCURRENCY_UNENFORCEABLE: 'A job declares concurrency but the driver has no lease store.',
  X_JOB_RATE_LIMITED:
    "A run was over its job's rateLimit; its row went back, uncounted, to run when the window allows (a release's code, not a failure).",
  X_JOB_RATE_LIMIT_UNENFORCEABLE: 'A job declares rateLimit but the driver has no rate-limit store.',
  X_JOB_COMPENSATION_FAILED: 'A compensator threw while unwinding a failed run.',
  X_JOB_MAX_ATTEMPTS: 'Retries are exhausted; the job was dead-lettered.',
  X_JOB_SETTLE_REFUSED:
    'The backend refused to store a finished attempt (its result, error or progress); the row was dead-lettered rather than run again.',
  X_JOB_UNKNOWN: 'A claimed row names a job this worker has not registered.',
  X_WORKER_OPTIONS_INVALID: 'createWorker was given an invalid option.',
  // Replay check (replay-check/): a run that could not be checked.
  X_REPLAY_CHECK_TIMEOUT: 'A replay check: the body did not reach the end of its recorded history in time.',
  X_REPLAY_CHECK_UNSUPPORTED:
    'A replay check: the body called a step method the check does not know (a newer step kind).',
  // Child jobs (step.invoke) and awaiting results (awaitResult, enqueue(…).result()).
  X_JOB_CHILD_CANCELLED:
    'A child job a run invoked with step.invoke was cancelled before it finished; terminal for the parent.',
  X_JOB_CANCELLED: 'The job awaited with awaitResult was cancelled before it finished.',
  X_JOB_RESULT_TIMEOUT:
    'awaitResult gave up: the job did not finish within the timeout; the job is untouched.',
  X_JOB_RESULT_ABORTED:
    'awaitResult was aborted by its signal before the job finished; the job is untouched.',
  X_DRIVER_INTROSPECTION_REQUIRED:
    'step.invoke and awaitResult read job rows, which needs a driver with introspection.',
  // Queue settings (driver-kit): what every driver factory's `queues` option and claim check alike.
  X_QUEUE_OPTIONS_INVALID:
    "A driver factory's queues option is invalid (not an object, an empty queue name, an unknown key, a fairness other than 'none' or 'tenant').",
  X_CLAIM_FAIRNESS_MIXED:
    'A claim named a queue with fairness: "tenant" together with other queues; a fair queue is claimed on its own.',
  // Value rules (values/): what every driver stores alike.
  X_JOB_PAYLOAD_TOO_LARGE:
    "The payload's JSON is larger than the job's maxPayloadBytes (default 1 MiB); nothing was written.",
  X_JOB_OUTPUT_UNSTORABLE:
    'A step output, run result, progress or event payload breaks the storable-value rule (lone surrogate, U+0000, non-finite number, too deep or too large); terminal.',
} as const;

/** A code @x/jobs-core can throw. */
export type CoreErrorCode = keyof typeof CORE_ERROR_CODES;
