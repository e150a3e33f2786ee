import type { JsonValue } from './json.js';

/** True when JSON leaves the key out entirely (undefined, a function, a symbol). */
type OmittedInJson<V> = [V] extends [undefined | symbol | ((...args: never[]) => unknown)] ? true : false;

/** Keys always present in the JSON form. */
type PresentKeys<T> = {
  [K in keyof T]-?: K extends symbol
    ? never
    : OmittedInJson<T[K]> extends true
      ? never
      : undefined extends T[K]
        ? never
        : K;
}[keyof T];

/** Keys present only when their value is defined. */
type MaybeKeys<T> = {
  [K in keyof T]-?: K extends symbol
    ? never
    : OmittedInJson<T[K]> extends true
      ? never
      : undefined extends T[K]
        ? K
        : never;
}[keyof T];

/** An object's JSON form, flattened into one object type. */
type JsonFormObject<T> = {
  -readonly [K in PresentKeys<T> | MaybeKeys<T>]: K extends PresentKeys<T>
    ? JsonForm<T[K]>
    : JsonForm<Exclude<T[K], undefined>> | undefined;
} extends infer O
  ? { [K in keyof O as K extends MaybeKeys<T> ? never : K]: O[K] } & {
      [K in keyof O as K extends MaybeKeys<T> ? K : never]?: Exclude<O[K], undefined>;
    }
  : never;

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
