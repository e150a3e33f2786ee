import fc from 'fast-check';

/** A lease or visibility window of a generated operation: one no run lets pass, or one that lapses at once. */
export type Window = 'long' | 'lapse';

/** When a generated row (or hand-back) is due: now, long ago, or far in the future. */
export type Due = 'now' | 'past' | 'future';

/**
 * One driver call of a generated sequence, in terms both drivers understand: rows, claims and
 * grants are named by the order they appeared in the sequence, never by ids or tokens a driver
 * made up.
 */
export type ModelOperation =
  | {
      readonly op: 'enqueue';
      readonly queue: number;
      readonly key: number;
      readonly tenant: number;
      readonly priority: number;
      readonly due: Due;
      readonly onConflict: 'dedupe' | 'error';
    }
  | {
      readonly op: 'enqueueMany';
      readonly rows: readonly { readonly queue: number; readonly key: number; readonly due: Due }[];
    }
  | {
      readonly op: 'claim';
      readonly queues: readonly number[];
      readonly limit: number;
      readonly start: number;
      readonly window: Window;
      readonly worker: number;
    }
  | { readonly op: 'start'; readonly claim: number; readonly window: Window }
  | { readonly op: 'heartbeat'; readonly claim: number; readonly window: Window }
  | { readonly op: 'ack'; readonly claim: number; readonly result: number }
  | { readonly op: 'retry'; readonly claim: number; readonly due: Due }
  | { readonly op: 'release'; readonly claim: number; readonly due: Due }
  | { readonly op: 'suspend'; readonly claim: number; readonly due: Due; readonly event: number | null }
  | { readonly op: 'dead'; readonly claim: number }
  | { readonly op: 'progress'; readonly claim: number; readonly current: number }
  | { readonly op: 'saveStep'; readonly claim: number; readonly step: number }
  | { readonly op: 'cancel'; readonly row: number }
  | { readonly op: 'promote'; readonly row: number }
  | { readonly op: 'operatorRetry'; readonly row: number }
  | { readonly op: 'pause'; readonly queue: number }
  | { readonly op: 'resume'; readonly queue: number }
  | { readonly op: 'publish'; readonly event: number; readonly value: number }
  | { readonly op: 'findEvent'; readonly event: number; readonly value: number | null }
  | {
      readonly op: 'acquire';
      readonly key: number;
      readonly holder: number;
      readonly limit: number;
      readonly window: Window;
    }
  | { readonly op: 'renew'; readonly grant: number; readonly window: Window }
  | { readonly op: 'release-lease'; readonly grant: number }
  | { readonly op: 'advance' };

const small = (max: number) => fc.integer({ min: 0, max });
const due = fc.constantFrom<Due>('now', 'past', 'future');
const windowArb = fc.constantFrom<Window>('long', 'lapse');
/** A reference to an earlier claim (or grant, or row): resolved modulo how many exist when it runs. */
const ref = small(7);

/** Every operation kind, weighted toward the ones that move rows. */
export const modelOperation: fc.Arbitrary<ModelOperation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('enqueue' as const),
      queue: small(1),
      key: small(3),
      tenant: small(1),
      priority: fc.constantFrom(0, 0, 5),
      due,
      onConflict: fc.constantFrom<'dedupe' | 'error'>('dedupe', 'dedupe', 'error'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('enqueueMany' as const),
      rows: fc.array(fc.record({ queue: small(1), key: small(3), due }), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 7,
    arbitrary: fc.record({
      op: fc.constant('claim' as const),
      queues: fc.constantFrom([0], [1], [0, 1], [0, 1]),
      limit: fc.integer({ min: 1, max: 3 }),
      start: fc.constantFrom(0, 0, 1, 3),
      window: windowArb,
      worker: small(1),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('start' as const), claim: ref, window: windowArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('heartbeat' as const), claim: ref, window: windowArb }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('ack' as const), claim: ref, result: small(9) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('retry' as const), claim: ref, due }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), claim: ref, due }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('suspend' as const),
      claim: ref,
      due,
      event: fc.option(small(1)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('dead' as const), claim: ref }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('progress' as const), claim: ref, current: small(9) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('saveStep' as const), claim: ref, step: small(2) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancel' as const), row: ref }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('promote' as const), row: ref }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('operatorRetry' as const), row: ref }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('pause' as const), queue: small(1) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('resume' as const), queue: small(1) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('publish' as const), event: small(1), value: small(1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('findEvent' as const),
      event: small(1),
      value: fc.option(small(1)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('acquire' as const),
      key: small(1),
      holder: small(2),
      limit: fc.integer({ min: 1, max: 2 }),
      window: windowArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('renew' as const), grant: ref, window: windowArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('release-lease' as const), grant: ref }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('advance' as const) }) },
);

/** A sequence of up to `maxLength` operations. */
export function modelSequence(maxLength: number): fc.Arbitrary<ModelOperation[]> {
  return fc.array(modelOperation, { minLength: Math.min(8, maxLength), maxLength, size: 'max' });
}
