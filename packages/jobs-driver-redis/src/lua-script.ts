import { createHash } from 'node:crypto';

/** The name a script binds one of its `KEYS` to: `base` becomes the Lua local `K_BASE`. */
export type ScriptKeyLabel =
  | 'base'
  | 'seq'
  | 'dedupe'
  | 'jobs'
  | 'queues'
  | 'paused'
  | 'steps'
  | 'lease'
  | 'rate'
  | 'rate_tail'
  | 'event_records'
  | 'event_expiry'
  | 'workers'
  | 'workers_seen'
  | 'schedules'
  | 'backfills'
  | 'backfills_started';

/** A piece of Lua shared by several scripts (functions only), with the keys and pieces it needs. */
export interface LuaFragment {
  readonly name: string;
  /** Keys the fragment's functions read through `K_<LABEL>` locals. */
  readonly keys: readonly ScriptKeyLabel[];
  /** Fragments that must precede this one. */
  readonly requires: readonly LuaFragment[];
  readonly lua: string;
}

/** One atomic operation: the full script text as Redis runs it, its SHA-1 and its `KEYS` in order. */
export interface LuaScript {
  readonly name: string;
  /** `KEYS[i]` is the key labelled `keys[i - 1]`. */
  readonly keys: readonly ScriptKeyLabel[];
  /** The verbatim script: contract block, key bindings, shared fragments, body. */
  readonly lua: string;
  /** SHA-1 of `lua`, what EVALSHA is called with. */
  readonly sha: string;
}

/** Declares a shared fragment. */
export function luaFragment(spec: {
  name: string;
  keys?: readonly ScriptKeyLabel[];
  requires?: readonly LuaFragment[];
  lua: string;
}): LuaFragment {
  return { name: spec.name, keys: spec.keys ?? [], requires: spec.requires ?? [], lua: spec.lua.trim() };
}

/**
 * Composes a script: the contract block (as `--` comments), `local K_<LABEL> = KEYS[i]` for each
 * key, every included fragment once in dependency order, then the body. Throws at module load when
 * a fragment needs a key the script does not declare, so a missing key is caught by any test.
 */
export function defineLuaScript(spec: {
  name: string;
  contract: string;
  keys: readonly ScriptKeyLabel[];
  includes?: readonly LuaFragment[];
  body: string;
}): LuaScript {
  const fragments = orderFragments(spec.includes ?? []);
  for (const fragment of fragments) {
    for (const key of fragment.keys) {
      if (!spec.keys.includes(key)) {
        throw new Error(`Lua script ${spec.name}: fragment ${fragment.name} needs key ${key}`);
      }
    }
  }
  const contract = spec.contract
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? '--' : `-- ${line.trimEnd()}`))
    .join('\n');
  const bindings = spec.keys.map((key, i) => `local K_${key.toUpperCase()} = KEYS[${i + 1}]`).join('\n');
  const lua = [
    `-- ${spec.name}.lua`,
    contract,
    '',
    bindings,
    ...fragments.map((fragment) => `\n-- [${fragment.name}]\n${fragment.lua}`),
    '',
    spec.body.trim(),
    '',
  ].join('\n');
  return {
    name: spec.name,
    keys: spec.keys,
    lua,
    sha: createHash('sha1').update(lua).digest('hex'),
  };
}

function orderFragments(roots: readonly LuaFragment[]): LuaFragment[] {
  const ordered: LuaFragment[] = [];
  const visit = (fragment: LuaFragment): void => {
    if (ordered.includes(fragment)) return;
    for (const required of fragment.requires) visit(required);
    ordered.push(fragment);
  };
  for (const root of roots) visit(root);
  return ordered;
}
