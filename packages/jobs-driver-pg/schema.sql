CREATE SCHEMA x_jobs;

CREATE TABLE x_jobs.backfills (
    name text NOT NULL,
    run_id text NOT NULL,
    checksum text NOT NULL,
    status text NOT NULL,
    rows_processed bigint DEFAULT 0 NOT NULL,
    cursor jsonb,
    started_at timestamp with time zone NOT NULL,
    completed_at timestamp with time zone,
    CONSTRAINT backfills_status_check CHECK ((status = ANY (ARRAY['running'::text, 'completed'::text, 'failed'::text])))
);

CREATE TABLE x_jobs.events (
    id bigint NOT NULL,
    event text NOT NULL,
    payload jsonb NOT NULL,
    published_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

ALTER TABLE x_jobs.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME x_jobs.events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE x_jobs.fair_queues (
    queue text NOT NULL,
    clock bigint DEFAULT 0 NOT NULL
);

CREATE TABLE x_jobs.fair_served (
    queue text NOT NULL,
    tenant text NOT NULL,
    served bigint NOT NULL
);

CREATE TABLE x_jobs.job_history (
    id text NOT NULL,
    seq bigint NOT NULL,
    run_id text NOT NULL,
    name text NOT NULL,
    queue text NOT NULL,
    state text NOT NULL,
    payload jsonb NOT NULL,
    tenant_id text,
    idempotency_key text NOT NULL,
    priority integer NOT NULL,
    attempts integer NOT NULL,
    max_attempts integer NOT NULL,
    enqueued_at timestamp with time zone NOT NULL,
    run_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone NOT NULL,
    lease_expires_at timestamp with time zone,
    worker_id text,
    claim_token text,
    last_error jsonb,
    stop_reason text,
    result jsonb,
    progress jsonb,
    waiting_for text,
    cancel_reason text,
    enqueued_by text,
    traceparent text,
    attempt_errors jsonb,
    CONSTRAINT job_history_state_check CHECK ((state = ANY (ARRAY['done'::text, 'dead'::text, 'cancelled'::text]))),
    CONSTRAINT job_history_stop_reason_check CHECK ((stop_reason = ANY (ARRAY['terminal'::text, 'attempts-exhausted'::text])))
);

CREATE TABLE x_jobs.jobs (
    id text NOT NULL,
    seq bigint NOT NULL,
    run_id text NOT NULL,
    name text NOT NULL,
    queue text NOT NULL,
    state text NOT NULL,
    payload jsonb NOT NULL,
    tenant_id text,
    idempotency_key text NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    max_attempts integer NOT NULL,
    enqueued_at timestamp with time zone DEFAULT now() NOT NULL,
    run_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    lease_expires_at timestamp with time zone,
    worker_id text,
    claim_token text,
    last_error jsonb,
    stop_reason text,
    result jsonb,
    progress jsonb,
    waiting_for text,
    cancel_reason text,
    enqueued_by text,
    traceparent text,
    live boolean GENERATED ALWAYS AS ((state = ANY (ARRAY['ready'::text, 'delayed'::text, 'running'::text, 'suspended'::text]))) STORED NOT NULL,
    attempt_errors jsonb,
    CONSTRAINT jobs_max_attempts_check CHECK ((max_attempts > 0)),
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['ready'::text, 'delayed'::text, 'running'::text, 'suspended'::text, 'done'::text, 'dead'::text, 'cancelled'::text]))),
    CONSTRAINT jobs_stop_reason_check CHECK ((stop_reason = ANY (ARRAY['terminal'::text, 'attempts-exhausted'::text])))
)
WITH (fillfactor='40');

ALTER TABLE x_jobs.jobs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME x_jobs.jobs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE x_jobs.leases (
    token text NOT NULL,
    key text NOT NULL,
    holder text NOT NULL,
    acquired_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

CREATE TABLE x_jobs.migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE x_jobs.paused_queues (
    queue text NOT NULL,
    paused_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE x_jobs.rate_limits (
    key text NOT NULL,
    grants bigint[] NOT NULL,
    last_retry_at bigint DEFAULT 0 NOT NULL,
    granted boolean NOT NULL,
    lapses_at timestamp with time zone NOT NULL
);

CREATE TABLE x_jobs.schedules (
    task text NOT NULL,
    watermark_ms bigint,
    paused boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE x_jobs.steps (
    run_id text NOT NULL,
    name text NOT NULL,
    "position" integer NOT NULL,
    status text NOT NULL,
    output jsonb,
    error jsonb,
    started_at timestamp with time zone NOT NULL,
    completed_at timestamp with time zone,
    CONSTRAINT steps_status_check CHECK ((status = ANY (ARRAY['started'::text, 'completed'::text, 'failed'::text])))
);

CREATE TABLE x_jobs.workers (
    id text NOT NULL,
    queues text[] NOT NULL,
    concurrency integer NOT NULL,
    in_flight integer NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    started_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY x_jobs.backfills
    ADD CONSTRAINT backfills_pkey PRIMARY KEY (name, run_id);

ALTER TABLE ONLY x_jobs.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY x_jobs.fair_queues
    ADD CONSTRAINT fair_queues_pkey PRIMARY KEY (queue);

ALTER TABLE ONLY x_jobs.fair_served
    ADD CONSTRAINT fair_served_pkey PRIMARY KEY (queue, tenant);

ALTER TABLE ONLY x_jobs.job_history
    ADD CONSTRAINT job_history_pkey PRIMARY KEY (id);

ALTER TABLE ONLY x_jobs.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY x_jobs.leases
    ADD CONSTRAINT leases_pkey PRIMARY KEY (token);

ALTER TABLE ONLY x_jobs.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY x_jobs.paused_queues
    ADD CONSTRAINT paused_queues_pkey PRIMARY KEY (queue);

ALTER TABLE ONLY x_jobs.rate_limits
    ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (key);

ALTER TABLE ONLY x_jobs.schedules
    ADD CONSTRAINT schedules_pkey PRIMARY KEY (task);

ALTER TABLE ONLY x_jobs.steps
    ADD CONSTRAINT steps_pkey PRIMARY KEY (run_id, name);

ALTER TABLE ONLY x_jobs.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (id);

CREATE INDEX backfills_started_idx ON x_jobs.backfills USING btree (started_at DESC);

CREATE INDEX events_expires_idx ON x_jobs.events USING btree (expires_at);

CREATE INDEX events_find_idx ON x_jobs.events USING btree (event, published_at);

CREATE INDEX job_history_failed_idx ON x_jobs.job_history USING btree (queue, seq DESC) WHERE (state <> 'done'::text);

CREATE INDEX job_history_finished_idx ON x_jobs.job_history USING brin (finished_at);

CREATE INDEX job_history_run_id_idx ON x_jobs.job_history USING btree (run_id);

CREATE INDEX jobs_claim_idx ON x_jobs.jobs USING btree (queue, priority DESC, run_at, seq) WHERE live;

CREATE UNIQUE INDEX jobs_live_key_idx ON x_jobs.jobs USING btree (name, COALESCE(tenant_id, ''::text), idempotency_key) WHERE live;

CREATE INDEX jobs_run_id_idx ON x_jobs.jobs USING btree (run_id);

CREATE INDEX jobs_waiting_for_idx ON x_jobs.jobs USING btree (waiting_for) WHERE (waiting_for IS NOT NULL);

CREATE INDEX leases_key_idx ON x_jobs.leases USING btree (key, expires_at);

CREATE INDEX rate_limits_lapses_idx ON x_jobs.rate_limits USING btree (lapses_at);

