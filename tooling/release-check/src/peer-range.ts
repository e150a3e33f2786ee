/**
 * The range an `@x/*` package declares for an `@x/*` peer (README "Releasing"): from the peer's
 * version it is released with up to the peer's next major, `>=0.2.0 <1.0.0` for 0.2.0 and
 * `>=1.4.0 <2.0.0` (the same as `^1.4.0`) for 1.4.0. Unlike a caret, it admits a 0.x peer's next
 * minors, so a core minor leaves its dependents alone; a core major leaves the range, and changesets
 * releases every dependent as a major.
 */
export function compatibleRange(version: string): string {
  const major = /^(\d+)\.\d+\.\d+/.exec(version)?.[1];
  if (major === undefined) throw new Error(`${version} is not a semver version`);
  return `>=${version} <${Number(major) + 1}.0.0`;
}

/** The workspace form of {@link compatibleRange} that package.json holds (`pnpm pack` drops `workspace:`). */
export function workspacePeerRange(version: string): string {
  return `workspace:${compatibleRange(version)}`;
}

/** A package.json, as far as peer floors care. */
export interface PeerManifest {
  readonly name: string;
  peerDependencies?: Record<string, string>;
  readonly [key: string]: unknown;
}

/**
 * Sets every `@x/*` peer of `manifest` whose version `versions` knows to
 * {@link workspacePeerRange} of that version: the floor is the version the package is released
 * (and was tested) with. Answers the peers it changed; `manifest` is changed in place.
 */
export function raisePeerFloors(manifest: PeerManifest, versions: ReadonlyMap<string, string>): string[] {
  const changed: string[] = [];
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    const version = versions.get(name);
    if (!name.startsWith('@x/') || version === undefined) continue;
    const wanted = workspacePeerRange(version);
    if (range === wanted) continue;
    (manifest.peerDependencies as Record<string, string>)[name] = wanted;
    changed.push(`${name} ${range} → ${wanted}`);
  }
  return changed;
}
