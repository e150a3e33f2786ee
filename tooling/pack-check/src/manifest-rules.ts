/** A package.json as packed (workspace: and catalog: ranges already rewritten). */
export interface PackedManifest {
  readonly name: string;
  readonly exports?: Record<string, unknown>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly [key: string]: unknown;
}

/** The package every other package is built on: it must be a peer, never a dependency. */
const CORE = '@x/jobs-core';

/**
 * What the packed manifest breaks of the packaging rules, one sentence each (empty: none).
 * `files` lists the tarball's paths (`package/` prefix removed).
 *
 * - every exports entry is `{ types, default }` (types first; `default` serves `import` and, on
 *   Node 20.19+, `require()`), pointing at files the tarball holds; no `@x/source` condition;
 * - no `workspace:` or `catalog:` range survives packing;
 * - runtime dependencies are ranges, not exact pins;
 * - `@x/jobs-core` is a peer dependency of every other package, never a dependency.
 */
export function manifestProblems(manifest: PackedManifest, files: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const text = JSON.stringify(manifest);
  if (text.includes('@x/source'))
    problems.push('the @x/source condition ships: add publishConfig.exports without it');
  if (/"(workspace|catalog):/.test(text)) problems.push('a workspace: or catalog: range survived packing');
  for (const [key, entry] of Object.entries(manifest.exports ?? {})) {
    if (typeof entry === 'string') {
      if (!files.has(entry.replace(/^\.\//, '')))
        problems.push(`exports["${key}"] points at ${entry}, not in the tarball`);
      continue;
    }
    const conditions = Object.keys(entry as object);
    if (conditions[0] !== 'types' || !conditions.includes('default')) {
      problems.push(
        `exports["${key}"] must list "types" first and have a "default" condition (has ${conditions.join(', ')})`,
      );
    }
    for (const target of Object.values(entry as Record<string, unknown>)) {
      if (typeof target === 'string' && !files.has(target.replace(/^\.\//, ''))) {
        problems.push(`exports["${key}"] points at ${target}, not in the tarball`);
      }
    }
  }
  for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
    if (/^\d/.test(range)) problems.push(`dependency ${dep} is pinned to ${range}: use a range (^${range})`);
  }
  if (manifest.name !== CORE) {
    if (manifest.dependencies?.[CORE] !== undefined)
      problems.push(`${CORE} is a dependency: make it a peerDependency`);
    if (manifest.peerDependencies?.[CORE] === undefined)
      problems.push(
        `${CORE} must be a peerDependency (README "Releasing": workspace:>=<version> <<next major>.0.0)`,
      );
  }
  return problems;
}
