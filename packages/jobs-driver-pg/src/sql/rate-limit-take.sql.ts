/**
 * SQL_RATE_LIMIT_TAKE — one take of a sliding-window rate limit, atomically, in one upsert: the
 * row lock of `on conflict … do update` serialises every taker of the key across processes, and
 * the update reads the latest committed log, so racing workers never grant more than `$2` in any
 * `$3` ms. Times are the server's `clock_timestamp()` read after the lock (not `now()`, which is
 * the statement's start and may precede a grant that committed while this one waited).
 *
 * The rule (the memory driver's `takeFromLog`): drop grants with `g + $3 ≤ now`; when fewer than
 * `$2` remain, append `greatest(now, newest grant)` and answer granted; else answer, and record as
 * the line's tail, `greatest(E, last_retry_at + ceil($3 / $2))`, E being the `(n − $2 + 1)`-th
 * oldest of the n counted grants plus `$3`. A new key's first take inserts its row, granted.
 *
 * Beside it, the statement deletes up to 8 lapsed rows of other keys (`skip locked`: never waits),
 * which keeps the table at about the number of keys active in the last window.
 *
 * Params: `$1` key, `$2` int limit, `$3` bigint window ms.
 * Returns: `(granted, last_retry_at)`: `last_retry_at` is the refusal's retryAt (epoch ms).
 */
export const SQL_RATE_LIMIT_TAKE = `with swept as (
  delete from :"SCHEMA".rate_limits
  where key in (
    select key from :"SCHEMA".rate_limits
    where lapses_at < now() and key <> $1::text
    limit 8 for update skip locked
  )
)
insert into :"SCHEMA".rate_limits as r (key, grants, last_retry_at, granted, lapses_at)
values ($1::text, array[floor(extract(epoch from clock_timestamp()) * 1000)::bigint], 0, true,
  clock_timestamp() + $3::bigint * interval '1 millisecond')
on conflict (key) do update set (grants, last_retry_at, granted, lapses_at) = (
  select n.grants, n.last_retry_at, n.granted,
    to_timestamp(greatest(n.grants[cardinality(n.grants)] + $3::bigint, n.last_retry_at)::float8 / 1000)
  from (
    select case when t.granted then t.kept || t.at else t.kept end as grants,
      case when t.granted then r.last_retry_at
        else greatest(t.kept[cardinality(t.kept) - $2::int + 1] + $3::bigint,
          r.last_retry_at + ceil($3::float8 / $2::int)::bigint) end as last_retry_at,
      t.granted
    from (
      select k.kept, k.at, cardinality(k.kept) < $2::int as granted
      from (
        select array(select g from unnest(r.grants) g where g + $3::bigint > c.now_ms order by g) as kept,
          greatest(c.now_ms, r.grants[cardinality(r.grants)]) as at
        from (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms) c
      ) k
    ) t
  ) n
)
returning granted, last_retry_at`;
