import { type JsonValue, VALUE_LIMITS } from '@x/jobs-core';
import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { saveStep, stepRecord } from './step-records.js';

const group = 'values';

/**
 * Strings core admits (well-formed UTF-16 without U+0000) that drivers have been seen to mangle:
 * astral characters (surrogate pairs), U+FFFD itself, quotes and backslashes (JSON and Lua
 * escaping), right-to-left and combining marks, control characters other than U+0000, the
 * highest code points, and strings that look like JSON or Lua patterns.
 */
export const TRICKY_STRINGS: readonly string[] = [
  '',
  'plain',
  'emoji 😀 and 𝄞 (astral: surrogate pairs)',
  'U+FFFD \ufffd is a character like any other',
  'quotes " \' ` and backslashes \\ \\\\ \\u0000 (an escape, not a NUL)',
  'RTL \u202e עברית العربية \u202c mixed',
  'combining e\u0301 and ZWJ 👩\u200d💻',
  'controls \u0001\u0008\t\n\r\u001f\u007f\u0085\u2028\u2029',
  'edges \u{10ffff} \uffff \ue000 \u00ff',
  '{"looks":"like json"}',
  '%s %d [%a] .* ^$ (lua patterns)',
];

/** Numbers JSON and every driver must return exactly. */
export const TRICKY_NUMBERS: readonly number[] = [
  0,
  1,
  -1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 53 + 2,
  0.1,
  0.1 + 0.2,
  -1.5e-7,
  1e21,
  123456789.12345679,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  2 ** -1074,
  Math.PI,
];

/** A payload holding every tricky string (as values and keys) and number, nested. */
export function trickyPayload(): JsonValue {
  const byKey: Record<string, JsonValue> = {};
  TRICKY_STRINGS.forEach((text, index) => {
    byKey[text === '' ? 'empty-key' : text] = index;
  });
  byKey['k'.repeat(1024)] = 'a 1 KB key';
  let deep: JsonValue = 'bottom';
  for (let level = 0; level < VALUE_LIMITS.maxDepth - 2; level++) deep = [deep];
  return {
    strings: [...TRICKY_STRINGS],
    numbers: [...TRICKY_NUMBERS],
    byKey,
    mixed: [null, true, false, { nested: { empty: {}, list: [] } }, ''],
    deep,
  };
}

/** Identity strings at core's byte limits, built from multi-byte characters. */
function atLimit(bytes: number, unit: string): string {
  const unitBytes = Buffer.byteLength(unit, 'utf8');
  return unit.repeat(Math.floor(bytes / unitBytes));
}

/** A driver given what core admits stores and returns it exactly, on every path. */
export const valueCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'payload strings, keys, numbers and nesting come back exactly through claim and introspect.get',
    async run(h) {
      const payload = trickyPayload();
      const written = await h.enqueue(h.queue, { payload });
      const job = await h.claimOne(h.queue);
      expect(job.id).toBe(written.id);
      expect(job.payload).toEqual(payload);
      expect((await h.row(job.id)).payload).toEqual(payload);
    },
  },
  {
    group,
    name: 'names, tenants and keys with astral characters and U+FFFD are stored as given, at the byte limits',
    async run(h) {
      const name = `${atLimit(VALUE_LIMITS.nameBytes - 40, '😀')}-${h.unique('n')}`;
      const tenantId = atLimit(VALUE_LIMITS.tenantBytes, '€');
      const idempotencyKey = `${atLimit(VALUE_LIMITS.idempotencyKeyBytes - 48, 'ü\ufffd')}${h.unique('k')}`;
      const enqueuedBy = 'user "\\" 𝄞';
      const written = await h.enqueue(h.queue, { name, tenantId, idempotencyKey, enqueuedBy });
      const job = await h.claimOne(h.queue);
      expect({ name: job.name, tenantId: job.tenantId, key: job.idempotencyKey, by: job.enqueuedBy }).toEqual(
        {
          name,
          tenantId,
          key: idempotencyKey,
          by: enqueuedBy,
        },
      );
      const row = await h.row(written.id);
      expect({ name: row.name, tenantId: row.tenantId, key: row.idempotencyKey }).toEqual({
        name,
        tenantId,
        key: idempotencyKey,
      });
    },
  },
  {
    group,
    name: 'keys that differ only in astral characters, U+FFFD or case are distinct rows, never merged',
    async run(h) {
      const base = h.unique('order');
      const keys = [`${base}-\ufffd`, `${base}-😀`, `${base}-😁`, `${base}-`, `${base}-A`, `${base}-a`];
      const results = await h.driver.enqueueMany(
        keys.map((idempotencyKey) => h.request(h.queue, { idempotencyKey })),
      );
      expect(results.map((r) => r.deduped)).toEqual(keys.map(() => false));
      expect(new Set(results.map((r) => r.id)).size).toBe(keys.length);
      const again = await h.enqueue(h.queue, { idempotencyKey: `${base}-😀` });
      expect(again).toMatchObject({ id: results[1]!.id, deduped: true });
    },
  },
  {
    group,
    name: 'a step output and a run result come back exactly',
    async run(h) {
      const job = await h.running();
      const output = trickyPayload();
      const step = stepRecord('tricky 😀 "step" \\', 0, h.driver.now(), { output });
      await saveStep(h, job, step);
      expect(await h.driver.steps.load(job.runId)).toEqual([step]);
      const result = { strings: [...TRICKY_STRINGS], numbers: [...TRICKY_NUMBERS] };
      expect(await h.driver.ack(job.id, job.claim, result)).toBe(true);
      const row = await h.row(job.id);
      expect(row.result).toEqual(result);
      expect(row.steps).toEqual([step]);
    },
  },
  {
    group,
    name: 'an event payload comes back exactly, and matches on its tricky strings',
    async run(h) {
      const event = h.unique('evt 😀');
      const since = h.driver.now();
      const payload = trickyPayload();
      const published = await h.driver.events.publish(event, payload, { ttlMs: LONG_MS });
      expect(published.payload).toEqual(payload);
      const found = await h.driver.events.find(event, { since, match: { strings: [TRICKY_STRINGS[2]!] } });
      expect(found?.id).toBe(published.id);
      expect(found?.payload).toEqual(payload);
      expect(
        await h.driver.events.find(event, { since, match: { byKey: { [TRICKY_STRINGS[3]!]: 3 } } }),
      ).toEqual(published);
      expect(await h.driver.events.find(event, { since, match: { byKey: { '\ufffd': 3 } } })).toBeNull();
    },
  },
];
