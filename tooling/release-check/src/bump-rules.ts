import semver from 'semver';
import { BUMPS, type Bump, maxBump } from './pending-changesets.js';

/** The kinds of dependency a published manifest holds that can move a dependent's version. */
export type EdgeKind = 'dependencies' | 'optionalDependencies' | 'peerDependencies';

const KINDS: readonly EdgeKind[] = ['dependencies', 'optionalDependencies', 'peerDependencies'];

/** One `@x/*` package's range for another, as changesets reads it (`workspace:` resolved). */
export interface InternalEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly range: string;
}

/** A workspace package.json, as far as versions and ranges go. */
export interface VersionedManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/**
 * The range a manifest's specifier stands for, read as changesets reads it: `workspace:*` is the
 * exact current version, `workspace:^`/`workspace:~` a caret/tilde on it, `workspace:<range>` the
 * range. Undefined for what is no range (`file:`, `link:`).
 */
export function resolveSpecifier(specifier: string, currentVersion: string): string | undefined {
  const bare = specifier.replace(/^workspace:/, '');
  if (bare === '*' && specifier.startsWith('workspace:')) return currentVersion;
  if (bare === '^' || bare === '~') return `${bare}${currentVersion}`;
  return semver.validRange(bare) === null ? undefined : bare;
}

/** Every range one package of `manifests` declares for another (devDependencies never release). */
export function internalEdges(manifests: readonly VersionedManifest[]): InternalEdge[] {
  const versions = new Map(manifests.map((m) => [m.name, m.version]));
  const edges: InternalEdge[] = [];
  for (const manifest of manifests) {
    for (const kind of KINDS) {
      for (const [to, specifier] of Object.entries(manifest[kind] ?? {})) {
        const current = versions.get(to);
        if (current === undefined) continue;
        const range = resolveSpecifier(specifier, current);
        if (range !== undefined) edges.push({ from: manifest.name, to, kind, range });
      }
    }
  }
  return edges;
}

/** The bump that takes `from` to `to`: `0.1.0 → 0.2.0` is a minor, `0.2.0 → 1.0.0` a major. */
export function bumpBetween(from: string, to: string): Bump {
  if (semver.eq(from, to)) return 'none';
  if (semver.lt(to, from)) throw new Error(`version goes backwards: ${from} → ${to}`);
  if (semver.major(to) !== semver.major(from)) return 'major';
  if (semver.minor(to) !== semver.minor(from)) return 'minor';
  return 'patch';
}

/** What the dry run found for one package. */
export interface BumpVerdict {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly bump: Bump;
  /** The largest bump the package's own changesets ask. */
  readonly asked: Bump;
  /** `asked`, raised by the documented rules where a range had to move. */
  readonly allowed: Bump;
  /** Why `allowed` exceeds `asked`, one sentence each. */
  readonly reasons: readonly string[];
  /** What breaks the policy, one sentence each (empty: the bump is right). */
  readonly problems: readonly string[];
}

/**
 * Judges each package's bump against the policy (root README "Releasing"): a package moves by what
 * its own changesets ask, plus
 * - a patch where the new version of an `@x/*` dependency (or optional dependency) leaves its range
 *   (the range must move, so the package is republished);
 * - a major where an `@x/*` peer is itself released as a major and leaves its range (a breaking
 *   peer is breaking for its dependents).
 * A peer that leaves its range on less than a major is a problem of the range, not a reason: ranges
 * must admit a peer's compatible releases. Rules apply transitively (a dependent made major counts
 * as a major for its own dependents).
 */
export function judgeBumps(input: {
  readonly before: ReadonlyMap<string, string>;
  readonly after: ReadonlyMap<string, string>;
  readonly asked: ReadonlyMap<string, Bump>;
  readonly edges: readonly InternalEdge[];
}): BumpVerdict[] {
  const { before, after, asked, edges } = input;
  const allowed = new Map([...before.keys()].map((name) => [name, asked.get(name) ?? 'none']));
  const reasons = new Map<string, string[]>([...before.keys()].map((name) => [name, []]));
  const leaving = edges.filter((edge) => {
    const version = after.get(edge.to);
    return version !== undefined && !semver.satisfies(version, edge.range);
  });
  for (let changed = true; changed; ) {
    changed = false;
    for (const edge of leaving) {
      const isPeer = edge.kind === 'peerDependencies';
      if (isPeer && allowed.get(edge.to) !== 'major') continue;
      const raised = maxBump(allowed.get(edge.from) ?? 'none', isPeer ? 'major' : 'patch');
      if (raised === allowed.get(edge.from)) continue;
      allowed.set(edge.from, raised);
      reasons
        .get(edge.from)
        ?.push(`${edge.to}@${after.get(edge.to)} leaves its ${edge.kind} range ${edge.range}: ${raised}`);
      changed = true;
    }
  }
  return [...before].map(([name, from]) => {
    const to = after.get(name) ?? from;
    const problems: string[] = [];
    let bump: Bump = 'none';
    try {
      bump = bumpBetween(from, to);
    } catch (error) {
      problems.push((error as Error).message);
    }
    const own = asked.get(name) ?? 'none';
    const most = allowed.get(name) ?? 'none';
    if (BUMPS.indexOf(bump) > BUMPS.indexOf(most)) {
      const why = (reasons.get(name) ?? []).join('; ');
      problems.push(
        `bumped ${bump} (${from} → ${to}) but its changesets ask ${own}${why === '' ? '' : ` (${why})`}`,
      );
    }
    if (BUMPS.indexOf(bump) < BUMPS.indexOf(own))
      problems.push(`bumped ${bump} but its changesets ask ${own}`);
    for (const edge of leaving.filter((e) => e.from === name && e.kind === 'peerDependencies')) {
      if (allowed.get(edge.to) === 'major') continue;
      problems.push(
        `its peer range ${edge.range} for ${edge.to} excludes ${edge.to}@${after.get(edge.to)}, a ${allowed.get(edge.to)} release: a peer range must admit the peer's releases up to its next major (README "Releasing")`,
      );
    }
    return { name, from, to, bump, asked: own, allowed: most, reasons: reasons.get(name) ?? [], problems };
  });
}
