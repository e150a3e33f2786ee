/** A due row as the fair order sees it. */
export interface FairCandidate {
  /** The row's tenant; null (no tenant) is one tenant of its own. */
  readonly tenantId: string | null;
  readonly priority: number;
  readonly runAt: number;
  /** Enqueue order. */
  readonly seq: number;
}

/**
 * The service a fair queue has given, as its backend keeps it (one per queue, seen by every
 * claimer of the queue). `served` is each tenant's counter in service units (absent: 0; the key
 * of rows with no tenant is `null`); `clock` is the queue's virtual clock: the start tag of the
 * last row a claim took (0 before the first).
 */
export interface FairService {
  readonly clock: number;
  readonly served: ReadonlyMap<string | null, number>;
}

/** What {@link fairOrder} answers: the rows taken, in claim order, and the service after them. */
export interface FairTake<Row> {
  readonly rows: Row[];
  /** The queue's clock after the take (unchanged when nothing was taken). */
  readonly clock: number;
  /** The new counter of every tenant that got a row (the others are unchanged). */
  readonly served: ReadonlyMap<string | null, number>;
}

/** Default claim order: higher priority first, then earlier runAt, then enqueue order. */
function defaultClaimOrder(a: FairCandidate, b: FairCandidate): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.runAt !== b.runAt) return a.runAt - b.runAt;
  return a.seq - b.seq;
}

/**
 * For driver authors: the fair claim order of `QueueOptions.fairness` (start-time fair queueing
 * over service given), as a reference: the memory driver runs it; Postgres and Redis compute the
 * same order in SQL and Lua. A tenant `t` with counter `s(t)` and row cost `c(t)` (see
 * `fairCost`) has its due rows ranked k = 1, 2, 3 … in the default order; its row of rank k gets
 * the start tag `max(s(t), clock) + (k − 1)·c(t)`. Rows are taken by start tag, then a tenant's
 * first row whose counter lagged the clock (`s(t) < clock`: it was served less than the queue
 * since it last had rows) before others, then the default order; at most `limit` of them. After
 * the take a tenant that got its rows up to start tag `S` has `s(t) = S + c(t)`, and the clock is
 * the start tag of the last row taken. Taking `limit` rows at once answers exactly what `limit`
 * claims of one row would.
 */
export function fairOrder<Row extends FairCandidate>(
  due: readonly Row[],
  service: FairService,
  limit: number,
  costOf: (tenant: string | null) => number,
): FairTake<Row> {
  const byTenant = new Map<string | null, Row[]>();
  for (const row of due) {
    const rows = byTenant.get(row.tenantId);
    if (rows === undefined) byTenant.set(row.tenantId, [row]);
    else rows.push(row);
  }
  const tagged: { row: Row; tag: number; lagged: boolean; cost: number }[] = [];
  for (const [tenant, rows] of byTenant) {
    rows.sort(defaultClaimOrder);
    const counter = service.served.get(tenant) ?? 0;
    const base = Math.max(counter, service.clock);
    const cost = costOf(tenant);
    const take = Math.min(rows.length, Math.max(0, limit));
    for (let k = 0; k < take; k += 1) {
      tagged.push({
        row: rows[k] as Row,
        tag: base + k * cost,
        lagged: k === 0 && counter < service.clock,
        cost,
      });
    }
  }
  tagged.sort(
    (a, b) => a.tag - b.tag || Number(b.lagged) - Number(a.lagged) || defaultClaimOrder(a.row, b.row),
  );
  const taken = tagged.slice(0, Math.max(0, limit));
  const served = new Map<string | null, number>();
  let clock = service.clock;
  for (const entry of taken) {
    served.set(entry.row.tenantId, entry.tag + entry.cost);
    clock = entry.tag;
  }
  return { rows: taken.map((entry) => entry.row), clock, served };
}
