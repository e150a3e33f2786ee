import { resetJobDriver } from '@x/jobs-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FourDrivers, openFourDrivers } from './four-drivers.js';
import { type GeneratedInput, generatedBatch } from './inputs.js';
import { aroundCore, batchJob, type Observation, observe, throughCore } from './observe.js';

// Fixed seed and bounded runs: the same inputs on every machine, ~30 s on a loaded 2-core box.
const SEED = 20_261_201;
const RUNS = 60;

let four: FourDrivers;

beforeAll(async () => {
  four = await openFourDrivers();
});
afterAll(async () => {
  resetJobDriver();
  await four?.close();
});

/** Runs one batch on every driver and answers the drivers whose observation differs from memory's. */
async function disagreements(
  batch: readonly GeneratedInput[],
  mode: 'through-core' | 'around-core',
): Promise<{ differing: Record<string, { memory: Observation; other: Observation }>; memory: Observation }> {
  const handle = batchJob();
  const seen = new Map<string, Observation>();
  for (const { name, driver } of four.drivers) {
    const enqueue = mode === 'through-core' ? throughCore(handle) : aroundCore(driver, handle);
    seen.set(name, await observe(driver, handle, batch, enqueue));
  }
  const memory = seen.get('memory')!;
  const differing: Record<string, { memory: Observation; other: Observation }> = {};
  for (const [name, other] of seen) {
    if (JSON.stringify(other) !== JSON.stringify(memory)) differing[name] = { memory, other };
  }
  return { differing, memory };
}

describe('the same inputs through memory, PGlite, Postgres and Redis', () => {
  it('get identical answers: admitted or refused with the same code, admitted values round-trip alike', async () => {
    let admitted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(generatedBatch, async (batch) => {
        const { differing, memory } = await disagreements(batch, 'through-core');
        expect(differing).toEqual({});
        admitted += memory.answers.filter((answer) => answer.startsWith('admitted')).length;
        refused += memory.answers.filter((answer) => answer.startsWith('refused')).length;
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The generator must exercise both sides of the rules, or the property proves nothing.
    expect(admitted).toBeGreaterThan(RUNS / 2);
    expect(refused).toBeGreaterThan(RUNS / 4);
  });

  it('would have caught the split the value rules close: around core, Postgres merges keys and refuses payloads memory admits', async () => {
    const { differing: merged } = await disagreements(
      [
        { key: 'order-\ud800', tenant: 'org-a', data: 1, options: {} },
        { key: 'order-\udbff', tenant: 'org-a', data: 2, options: {} },
        { key: 'order-\ufffd', tenant: 'org-a', data: 3, options: {} },
      ],
      'around-core',
    );
    expect(Object.keys(merged)).toEqual(expect.arrayContaining(['pglite', 'postgres']));
    expect(merged.postgres?.other.answers).toEqual([
      'admitted deduped=false row=0',
      'admitted deduped=true row=0',
      'admitted deduped=true row=0',
    ]);
    expect(merged.postgres?.memory.answers).toEqual([
      'admitted deduped=false row=0',
      'admitted deduped=false row=1',
      'admitted deduped=false row=2',
    ]);
    const found = await fc.check(
      fc.asyncProperty(generatedBatch, async (batch) => {
        expect((await disagreements(batch, 'around-core')).differing).toEqual({});
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(found.failed, 'the property finds a disagreement when the rules are bypassed').toBe(true);
  });
});
