/**
 * How a queue orders the rows a claim takes.
 *
 * - `'none'`: the default order every claim uses: higher `priority` first, then earlier `runAt`,
 *   then enqueue order.
 * - `'tenant'`: fair claiming across tenants, every tenant weight 1 (see
 *   {@link QueueOptions.fairness}).
 * - `{ by: 'tenant', weights }`: fair claiming with the named tenants' weights (others: 1).
 */
export type QueueFairness = 'none' | 'tenant' | FairnessByTenant;

/** Fair claiming across tenants with weights: `{ by: 'tenant', weights: { 'org-a': 3 } }`. */
export interface FairnessByTenant {
  readonly by: 'tenant';
  /**
   * Tenant id → weight, a number from 0.001 to 1000: a tenant of weight 3 is given three rows
   * for every row of a tenant of weight 1 while both have due rows. Tenants not named (and rows
   * with no tenant) weigh 1. (Default: every tenant 1)
   */
  readonly weights?: Readonly<Record<string, number>>;
}

/**
 * A queue's settings, given to a driver factory (`queues: { imports: { fairness: 'tenant' } }`).
 * Every process that claims from the queue must be given the same settings: a claim is ordered by
 * the settings of the driver that makes it.
 */
export interface QueueOptions {
  /**
   * Fair claiming: every claim on this queue shares it across tenants (rows with no tenant are one
   * more tenant) by the service each was given, counted in the backend where every claimer of the
   * queue — in any process — sees it. Precisely (start-time fair queueing): the backend keeps per
   * tenant a counter `s(t)` and per queue a clock `V`. A row of tenant `t` costs `1 / weight(t)`
   * (in units of 720720, see `FAIR_SERVICE_UNIT`). A claim gives the rank-k due row of `t` (ranked
   * by priority, runAt, enqueue order) the start tag `max(s(t), V) + (k − 1)·cost(t)` and takes
   * rows by start tag, then a tenant whose counter lagged `V` first, then the default order. Each
   * row taken adds its cost to its tenant's counter (counted at claim: a row handed back or
   * retried is served again); `V` becomes the start tag of the last row taken.
   *
   * What that guarantees: while tenants have due rows, each gets rows in proportion to its weight
   * (weights 1:1 alternate A, B, A, B …; 3:1 give three of A per one of B in every run of four);
   * a tenant that had no due row banks nothing (its counter is raised to `V`), so the service
   * window is "since the tenant last had a due row"; and a newly arrived tenant's first row has the
   * lowest start tag of the queue: it is in the next claim, whatever the backlog ahead of it (with
   * tenants that arrived at once, they take that turn in enqueue order). Priority orders a tenant's
   * own rows and breaks ties between start tags. A fair claim reads the queue's due rows and its
   * counters, and claims of one fair queue are serialized in the backend; see the driver's README
   * for numbers. (Default: 'none')
   */
  readonly fairness?: QueueFairness;
}

/** Queue name → its {@link QueueOptions}: what a driver factory's `queues` option takes. */
export type QueueOptionsMap = Readonly<Record<string, QueueOptions>>;
