import { coreError } from '../errors/core-error.js';

/**
 * Service units one row costs a tenant of weight 1. 720720 is the least common multiple of
 * 1 … 16, so a row of every integer weight up to 16 (and every weight dividing 720720) costs a
 * whole number of units exactly; other weights are rounded to the nearest unit.
 */
export const FAIR_SERVICE_UNIT = 720_720;

/** The smallest and largest weight a tenant may be given. */
export const FAIR_WEIGHT_MIN = 0.001;
export const FAIR_WEIGHT_MAX = 1000;

/** How one fair queue shares its claims: the weight of each named tenant (others: 1). */
export interface FairPolicy {
  readonly weights: ReadonlyMap<string, number>;
  /** Service units one row of `tenant` costs: `round(FAIR_SERVICE_UNIT / weight)`. */
  costOf(tenant: string | null): number;
}

/** The service units one row costs a tenant of `weight`. */
export function fairCost(weight: number): number {
  return Math.max(1, Math.round(FAIR_SERVICE_UNIT / weight));
}

/** Builds a {@link FairPolicy} from validated weights. */
export function fairPolicy(weights: ReadonlyMap<string, number>): FairPolicy {
  const costs = new Map([...weights].map(([tenant, weight]) => [tenant, fairCost(weight)]));
  const unit = fairCost(1);
  return {
    weights,
    costOf: (tenant) => (tenant === null ? unit : (costs.get(tenant) ?? unit)),
  };
}

const FAIRNESS_KEYS = new Set(['by', 'weights']);

/**
 * Parses one queue's `fairness` value: `undefined`/`'none'` (no policy), `'tenant'` (every tenant
 * weight 1) or `{ by: 'tenant', weights?: { [tenant]: number } }`. Throws `X_QUEUE_OPTIONS_INVALID`
 * naming the field for anything else: another string, an unknown key, `by` other than `'tenant'`,
 * `weights` not a plain object, or a weight that is not a finite number in
 * [{@link FAIR_WEIGHT_MIN}, {@link FAIR_WEIGHT_MAX}].
 */
export function parseFairness(raw: unknown, caller: string, field: string): FairPolicy | undefined {
  if (raw === undefined || raw === 'none') return undefined;
  if (raw === 'tenant') return fairPolicy(new Map());
  const refuse = (at: string, what: string) =>
    coreError('X_QUEUE_OPTIONS_INVALID', `${caller}: ${at} ${what}`, { field: at });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw refuse(field, "must be 'none', 'tenant' or { by: 'tenant', weights }.");
  }
  for (const key of Object.keys(raw)) {
    if (!FAIRNESS_KEYS.has(key)) throw refuse(`${field}.${key}`, 'is not a fairness option.');
  }
  const { by, weights } = raw as { by?: unknown; weights?: unknown };
  if (by !== 'tenant') throw refuse(`${field}.by`, "must be 'tenant'.");
  if (weights === undefined) return fairPolicy(new Map());
  if (weights === null || typeof weights !== 'object' || Array.isArray(weights)) {
    throw refuse(`${field}.weights`, 'must be an object of tenant id → weight.');
  }
  const parsed = new Map<string, number>();
  for (const [tenant, weight] of Object.entries(weights)) {
    if (
      typeof weight !== 'number' ||
      !Number.isFinite(weight) ||
      weight < FAIR_WEIGHT_MIN ||
      weight > FAIR_WEIGHT_MAX
    ) {
      throw refuse(
        `${field}.weights.${tenant}`,
        `must be a number from ${FAIR_WEIGHT_MIN} to ${FAIR_WEIGHT_MAX}.`,
      );
    }
    parsed.set(tenant, weight);
  }
  return fairPolicy(parsed);
}
