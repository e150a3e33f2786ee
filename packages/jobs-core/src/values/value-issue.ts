import { type StringIssueCode, stringIssue } from './string-rule.js';
import { VALUE_LIMITS } from './value-limits.js';

/** Why a value cannot be stored alike on every driver. */
export type ValueIssueCode =
  | StringIssueCode
  | `key_${StringIssueCode}`
  | 'not_finite'
  | 'unserializable'
  | 'too_deep';

/** Where a value breaks the rules, and which rule: the path names keys and indexes, never values. */
export interface ValueIssue {
  /** Dotted path into the value, `(root)` for the value itself. */
  readonly path: string;
  readonly code: ValueIssueCode;
}

type Segments = (string | number)[];
interface Found {
  readonly code: ValueIssueCode;
  readonly path: Segments;
}

/**
 * The first place `value` breaks the storable-value rule, or undefined when every driver stores it
 * exactly: every string and object key well-formed UTF-16 without U+0000, every number finite, no
 * bigint, at most {@link VALUE_LIMITS.maxDepth} levels deep. Walks the value as `JSON.stringify`
 * would (honouring `toJSON`, skipping keys whose value is undefined, a function or a symbol) in
 * one pass; the path is built only on a failure.
 */
export function valueIssue(value: unknown): ValueIssue | undefined {
  const found = walk(value, '', 0);
  if (found === undefined) return undefined;
  return { path: found.path.length === 0 ? '(root)' : found.path.reverse().join('.'), code: found.code };
}

function walk(value: unknown, key: string, depth: number): Found | undefined {
  switch (typeof value) {
    case 'string': {
      const code = stringIssue(value);
      return code === undefined ? undefined : { code, path: [] };
    }
    case 'number':
      return Number.isFinite(value) ? undefined : { code: 'not_finite', path: [] };
    case 'bigint':
      return { code: 'unserializable', path: [] };
    case 'object':
      return value === null ? undefined : walkObject(value, key, depth);
    default:
      return undefined;
  }
}

function walkObject(value: object, key: string, depth: number): Found | undefined {
  if (depth >= VALUE_LIMITS.maxDepth) return { code: 'too_deep', path: [] };
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return walk(toJSON.call(value, key), key, depth + 1);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = walk(value[index], String(index), depth + 1);
      if (found !== undefined) {
        found.path.push(index);
        return found;
      }
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const item = record[name];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const keyCode = stringIssue(name);
    if (keyCode !== undefined) return { code: `key_${keyCode}`, path: [] };
    const found = walk(item, name, depth + 1);
    if (found !== undefined) {
      found.path.push(name);
      return found;
    }
  }
  return undefined;
}
