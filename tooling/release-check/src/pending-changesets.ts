import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A semver bump, in the order a larger one wins. */
export type Bump = 'none' | 'patch' | 'minor' | 'major';

export const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/** The larger of two bumps. */
export function maxBump(a: Bump, b: Bump): Bump {
  return BUMPS.indexOf(a) >= BUMPS.indexOf(b) ? a : b;
}

/** One pending `.changeset/<id>.md`: the bumps it asks and its summary. */
export interface PendingChangeset {
  readonly id: string;
  readonly releases: readonly { readonly name: string; readonly bump: Bump }[];
  readonly summary: string;
}

/**
 * Parses a changeset file: a front matter of `"<package>": patch|minor|major` lines between `---`
 * lines, then the summary. Throws naming the file when the front matter is malformed, as
 * `changeset version` would refuse it.
 */
export function parseChangeset(id: string, text: string): PendingChangeset {
  const match = /^---\r?\n([\s\S]*?)\r?\n?---\r?\n?([\s\S]*)$/.exec(text.trimStart());
  if (match === null) throw new Error(`.changeset/${id}.md has no --- front matter`);
  const releases = [];
  for (const line of (match[1] ?? '').split('\n')) {
    if (line.trim() === '') continue;
    const release = /^\s*(["']?)(@?[^"':\s]+)\1\s*:\s*(patch|minor|major|none)\s*$/.exec(line);
    if (release === null) throw new Error(`.changeset/${id}.md: cannot read "${line.trim()}"`);
    releases.push({ name: release[2] as string, bump: release[3] as Bump });
  }
  return { id, releases, summary: (match[2] ?? '').trim() };
}

/** Every pending changeset of the repository at `root` (`.changeset/*.md` but its README), by id. */
export async function readPendingChangesets(root: string): Promise<PendingChangeset[]> {
  const dir = join(root, '.changeset');
  const files = (await readdir(dir)).filter((file) => file.endsWith('.md') && file !== 'README.md').sort();
  return Promise.all(
    files.map(async (file) => parseChangeset(file.slice(0, -3), await readFile(join(dir, file), 'utf8'))),
  );
}

/** The bump each package's own changesets ask: the largest over the changesets naming it. */
export function askedBumps(changesets: readonly PendingChangeset[]): Map<string, Bump> {
  const asked = new Map<string, Bump>();
  for (const changeset of changesets) {
    for (const { name, bump } of changeset.releases)
      asked.set(name, maxBump(asked.get(name) ?? 'none', bump));
  }
  return asked;
}
