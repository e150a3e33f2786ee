/** A due row as the fair order sees it. */
export interface FairCandidate {
  /** The row's tenant; null (no tenant) is one tenant of its own. */
  readonly tenantId: string | null;
  readonly priority: number;
  readonly runAt: number;
  /** Enqueue order. */
  readonly seq: number;
}

/** Default claim order: higher priority first, then earlier runAt, then enqueue order. */
function defaultOrder(a: FairCandidate, b: FairCandidate): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.runAt !== b.runAt) return a.runAt - b.runAt;
  return a.seq - b.seq;
}

/**
 * For driver authors: the fair claim order of `QueueOptions.fairness: 'tenant'`, as a reference
 * (the memory driver uses it; Postgres and Redis compute the same order in SQL and Lua). Answers
 * at most `limit` of `due` in claim order: by turn (`held(tenant) + rank of the row among its
 * tenant's due rows in default order`), then default order. `held` counts each tenant's rows
 * running under an unexpired lease (absent: 0; the key of rows with no tenant is `null`).
 */
export function fairOrder<Row extends FairCandidate>(
  due: readonly Row[],
  held: ReadonlyMap<string | null, number>,
  limit: number,
): Row[] {
  const byTenant = new Map<string | null, Row[]>();
  for (const row of due) {
    const rows = byTenant.get(row.tenantId);
    if (rows === undefined) byTenant.set(row.tenantId, [row]);
    else rows.push(row);
  }
  const turned: { row: Row; turn: number }[] = [];
  for (const [tenant, rows] of byTenant) {
    rows.sort(defaultOrder);
    const base = held.get(tenant) ?? 0;
    rows.forEach((row, index) => {
      turned.push({ row, turn: base + index + 1 });
    });
  }
  turned.sort((a, b) => a.turn - b.turn || defaultOrder(a.row, b.row));
  return turned.slice(0, Math.max(0, limit)).map((entry) => entry.row);
}
