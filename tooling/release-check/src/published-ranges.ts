import semver from 'semver';
import type { VersionedManifest } from './bump-rules.js';
import { compatibleRange } from './peer-range.js';

/** A package.json as packed (`workspace:` and `catalog:` ranges already rewritten by pnpm). */
export interface PackedManifest extends VersionedManifest {
  readonly publishConfig?: { readonly provenance?: unknown };
}

const KINDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/**
 * What a packed manifest breaks of the release rules, one sentence each (empty: none). `versions`
 * holds every publishable package's version after the release; `released` says whether this
 * manifest is published by it (else it is the one already published).
 *
 * - every `@x/*` range admits the version of that package the release leaves current, and stops
 *   below its next major (an open range would promise compatibility with breaking releases);
 * - a released package's `@x/*` peers are {@link compatibleRange} of the versions released with it
 *   (the floor is what it was tested with);
 * - a released package publishes with provenance (`publishConfig.provenance`).
 */
export function publishedRangeProblems(
  manifest: PackedManifest,
  versions: ReadonlyMap<string, string>,
  released: boolean,
): string[] {
  const problems: string[] = [];
  for (const kind of KINDS) {
    for (const [name, range] of Object.entries(manifest[kind] ?? {})) {
      if (!name.startsWith('@x/')) continue;
      const version = versions.get(name);
      if (version === undefined) {
        problems.push(`${kind} ${name} is no publishable package of this repository`);
        continue;
      }
      if (semver.validRange(range) === null) {
        problems.push(`${kind} ${name}: "${range}" is not a semver range`);
        continue;
      }
      if (!semver.satisfies(version, range))
        problems.push(`${kind} ${name}@"${range}" does not admit ${name}@${version}, the version released`);
      const nextMajor = `${semver.major(version) + 1}.0.0`;
      if (semver.satisfies(nextMajor, range))
        problems.push(`${kind} ${name}@"${range}" admits ${nextMajor}: stop it below the next major`);
      if (released && kind === 'peerDependencies' && range !== compatibleRange(version)) {
        problems.push(
          `peer ${name}@"${range}" should be "${compatibleRange(version)}", from the version released with it (pnpm version-packages writes it)`,
        );
      }
    }
  }
  if (released && manifest.publishConfig?.provenance !== true)
    problems.push('publishConfig.provenance is not true: the registry would hold no provenance for it');
  return problems;
}

/**
 * `@x/<name>@<spec>` words in a README's install commands whose spec the release leaves unmet
 * (a README pinning `@x/jobs-core@0.1` after 0.2.0 ships), one sentence each.
 */
export function readmeVersionProblems(readme: string, versions: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const line of readme.split('\n')) {
    if (!/\b(npm (install|i)|pnpm add|yarn add)\b/.test(line)) continue;
    for (const [, name, spec] of line.matchAll(/(@x\/[a-z0-9-]+)@(\S+)/g)) {
      const version = versions.get(name as string);
      if (version === undefined) problems.push(`"${line.trim()}" names ${name}, no publishable package`);
      else if (semver.validRange(spec as string) !== null && !semver.satisfies(version, spec as string))
        problems.push(`"${line.trim()}" asks ${name}@${spec}, but the release makes it ${version}`);
    }
  }
  return problems;
}
