import type { JsonValue } from './json.js';

/** True when JSON leaves the key out entirely (undefined, a function, a symbol). */
type OmittedInJson<V> = [V] extends [undefined | symbol | ((...args: never[]) => unknown)] ? true : false;

/** Keys JSON keeps: always present (`Maybe` false) or present only when defined (`Maybe` true). */
type JsonKeys<T, Maybe extends boolean> = {
  [K in keyof T]-?: K extends symbol
    ? never
    : OmittedInJson<T[K]> extends true
      ? never
      : (undefined extends T[K] ? true : false) extends Maybe
        ? K
        : never;
}[keyof T];

/** An object's JSON form: keys JSON always keeps, then keys it keeps only when defined. */
type JsonFormObject<T> = { -readonly [K in JsonKeys<T, false>]: JsonForm<T[K]> } & {
  -readonly [K in JsonKeys<T, true>]?: JsonForm<Exclude<T[K], undefined>>;
};

/** One object type instead of an intersection, so editors and type tests show the plain shape. */
type Flatten<O> = { [K in keyof O]: O[K] };

/** An array element: JSON writes null where an element is undefined, a function or a symbol. */
type JsonFormElement<V> = V extends undefined | symbol | ((...args: never[]) => unknown) ? null : JsonForm<V>;

/**
 * The type of `JSON.parse(JSON.stringify(value))` for a value of type `T`: what a persisted step
 * output, run result or payload reads back as. `Date` (anything with `toJSON`) becomes its JSON,
 * `undefined`/functions/symbols at the top become `null`, inside objects their keys disappear,
 * inside arrays they become `null`; `Map`/`Set` become `{}`. `bigint` has no JSON form (`never`):
 * at run time it is `X_STEP_OUTPUT_UNSERIALIZABLE`.
 */
export type JsonForm<T> = unknown extends T
  ? JsonValue
  : T extends { toJSON(...args: never[]): infer R }
    ? JsonForm<R>
    : T extends string | number | boolean | null
      ? T
      : // biome-ignore lint/suspicious/noConfusingVoidType: a run that returns nothing has result type void.
        T extends undefined | void | symbol | ((...args: never[]) => unknown)
        ? null
        : T extends bigint
          ? never
          : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>
            ? Record<string, never>
            : T extends readonly unknown[]
              ? { -readonly [K in keyof T]: JsonFormElement<T[K]> }
              : T extends object
                ? Flatten<JsonFormObject<T>>
                : never;

/**
 * The JSON form of a value: `JSON.parse(JSON.stringify(value))`, with `undefined` at the top as
 * `null`. Throws the native `TypeError` for a bigint or a cycle; callers re-code it.
 */
export function toJsonForm(value: unknown): JsonValue {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}
