/**
 * How a queue orders the rows a claim takes.
 *
 * - `'none'`: the default order every claim uses: higher `priority` first, then earlier `runAt`,
 *   then enqueue order.
 * - `'tenant'`: fair claiming across tenants (see {@link QueueOptions.fairness}).
 */
export type QueueFairness = 'none' | 'tenant';

/**
 * A queue's settings, given to a driver factory (`queues: { imports: { fairness: 'tenant' } }`).
 * Every process that claims from the queue must be given the same settings: a claim is ordered by
 * the settings of the driver that makes it.
 */
export interface QueueOptions {
  /**
   * `'tenant'` makes every claim on this queue share it fairly across tenants (rows with no tenant
   * are one more tenant). Tenants take turns: a claim gives each tenant one row per turn, the
   * tenants holding the fewest rows first. Precisely, a tenant `t` holding `held(t)` rows of the
   * queue (`running` under an unexpired lease: claimed, started or waiting in a prefetch buffer)
   * has its due rows ranked 1, 2, 3 … in the default order (priority, then runAt, then enqueue
   * order), and its row of rank `k` gets the turn `held(t) + k`. A claim takes rows by turn, then
   * by the default order between rows of one turn, and answers them in that order. So after a
   * claim, every tenant `t` that got rows and every tenant `u` left with a due row satisfy
   * `held'(t) ≤ held'(u) + 1`: a tenant's backlog never delays another tenant by more than one
   * row per claim slot, and the turn reaches a newly arrived tenant in its first claim.
   * Priority orders a tenant's own rows and breaks ties within a turn; across tenants the turn
   * comes first. A fair claim reads every due row of the queue (the default claim reads only
   * the `limit` it takes), so it costs more on a deep queue; see the driver's README for numbers.
   * (Default: 'none')
   */
  readonly fairness?: QueueFairness;
}

/** Queue name → its {@link QueueOptions}: what a driver factory's `queues` option takes. */
export type QueueOptionsMap = Readonly<Record<string, QueueOptions>>;
