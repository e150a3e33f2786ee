import { describe, expectTypeOf, it } from 'vitest';
import type { JsonValue } from './json.js';
import type { JsonForm } from './json-form.js';

describe('JsonForm', () => {
  it('maps a value type to what JSON reads back', () => {
    expectTypeOf<
      JsonForm<{ a: Date; b?: string; c: string | undefined; f: () => void; n: number[]; d: undefined }>
    >().toEqualTypeOf<{ a: string; b?: string; c?: string; n: number[] }>();
    expectTypeOf<JsonForm<undefined>>().toEqualTypeOf<null>();
    expectTypeOf<JsonForm<void>>().toEqualTypeOf<null>();
    expectTypeOf<JsonForm<Date>>().toEqualTypeOf<string>();
    expectTypeOf<JsonForm<[1, undefined, Date]>>().toEqualTypeOf<[1, null, string]>();
    expectTypeOf<JsonForm<unknown>>().toEqualTypeOf<JsonValue>();
    expectTypeOf<JsonForm<{ x: { y: Date }[] } | null>>().toEqualTypeOf<{ x: { y: string }[] } | null>();
    expectTypeOf<JsonForm<readonly string[]>>().toEqualTypeOf<string[]>();
    expectTypeOf<JsonForm<Map<string, number>>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<JsonForm<bigint>>().toEqualTypeOf<never>();
  });
});
