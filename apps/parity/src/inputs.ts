import fc from 'fast-check';

/**
 * One UTF-16 code unit or character, biased toward what drivers disagree on: lone surrogates
 * (Postgres, PGlite and Redis store U+FFFD), U+0000 (Postgres refuses it), U+FFFD itself, astral
 * characters, quotes, backslashes, right-to-left marks — mixed with any code unit at all.
 */
export const codeUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\u0000') },
  { weight: 15, arbitrary: fc.constantFrom('\ufffd', '😀', '"', '\\', '\u202e', 'a', 'é', ' ') },
  { weight: 18, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  },
);

/** A short string of {@link codeUnit}s. */
export const tricky = fc.string({ unit: codeUnit, maxLength: 6 });

/** What one generated enqueue carries: a key, a tenant, a payload, and the options it is given. */
export interface GeneratedInput {
  readonly key: string;
  readonly tenant: string;
  readonly data: unknown;
  readonly options: Record<string, unknown>;
}

/** Enqueue options: mostly none, sometimes a typo or a value out of range. */
const options = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>(
      { dealy: '1h' },
      { delay: '0.4ms' },
      { runAt: 1e20 },
      { priority: 2 ** 31 },
      { priority: 7 },
      { delay: '5m' },
    ),
  },
);

/**
 * One input. Keys come from a small alphabet around `order-` so that distinct keys which a driver
 * might fold together (`order-\ud800`, `order-\udbff`, `order-\ufffd`) meet within one batch.
 */
export const generatedInput: fc.Arbitrary<GeneratedInput> = fc.record({
  key: fc.oneof(
    fc.constantFrom('order-\ud800', 'order-\udbff', 'order-\ufffd', 'order-😀', 'order-'),
    tricky.map((suffix) => `order-${suffix}`),
  ),
  tenant: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('org-a', 'org-\ufffd', 'org-😀') },
    { weight: 1, arbitrary: fc.constantFrom('org-\ud800', '', 'org-\u0000', 'x'.repeat(300)) },
  ),
  data: fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: codeUnit }) },
    { weight: 1, arbitrary: fc.dictionary(tricky, fc.double(), { maxKeys: 3 }) },
  ),
  options,
});

/** A batch enqueued one after another on each driver (dedupe is observed within it). */
export const generatedBatch = fc.array(generatedInput, { minLength: 1, maxLength: 4 });
