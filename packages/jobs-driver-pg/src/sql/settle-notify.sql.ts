import { SETTLED_MESSAGE_MAX_BYTES } from '@x/jobs-core/driver';

/**
 * The settle wake of a statement that moves rows to a terminal state: a CTE `settled` of one row
 * that sends **one** `pg_notify` on the settle channel for every row of `gone` (a CTE holding the
 * settled rows' `id`), none when `gone` is empty. The payload names the ids joined by `\n` while
 * they fit in `SETTLED_MESSAGE_MAX_BYTES` (core: 7,900) bytes, else it is empty (a bare marker: "jobs settled,
 * re-read"). Delivered on commit, never on rollback.
 *
 * Why one per statement: NOTIFY takes a cluster-wide lock at commit and writes to the notify
 * queue whether anyone listens or not, so one per ack row would cost the hot path a queue entry
 * per job. The ack batcher already gathers the acks that arrive while earlier ones commit into
 * one statement (SQL_ACK_MANY, up to 1,000 rows), so this is one notify per ack batch — the same
 * count of notifies enqueue statements pay to wake workers.
 */
export const SETTLED_CTE = `settled as (
  select count(*) from (
    select pg_notify(:'SETTLED_CHANNEL', case
      when sum(octet_length(s.id) + 1) - 1 <= ${SETTLED_MESSAGE_MAX_BYTES} then string_agg(s.id, E'\\n')
      else '' end)
    from gone s having count(*) > 0
  ) n
)`;
