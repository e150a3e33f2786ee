import type { Bump } from './pending-changesets.js';

/** The section headings changesets writes, and the smallest bump each may appear under. */
const HEADINGS: Readonly<Record<string, Bump>> = {
  '### Major Changes': 'major',
  '### Minor Changes': 'minor',
  '### Patch Changes': 'patch',
};
const ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/**
 * What is wrong with a package's CHANGELOG.md after `changeset version`, one sentence each (empty:
 * sane): it opens with `# <name>`, its newest section is `## <version>` and no other section has that
 * version, that section holds no heading larger than the bump (no "Major Changes" under a minor),
 * and it holds the first line of each of the package's changesets.
 */
export function changelogProblems(
  text: string,
  release: {
    readonly name: string;
    readonly version: string;
    readonly bump: Bump;
    readonly summaries: readonly string[];
  },
): string[] {
  const problems: string[] = [];
  if (!text.startsWith(`# ${release.name}\n`)) problems.push(`does not open with "# ${release.name}"`);
  const sections = text.split(/^(?=## )/m).slice(1);
  const newest = sections[0] ?? '';
  const heading = newest.split('\n')[0]?.trim();
  if (heading !== `## ${release.version}`)
    problems.push(`newest section is "${heading ?? '(none)'}", not "## ${release.version}"`);
  const same = sections.filter((section) => section.split('\n')[0]?.trim() === `## ${release.version}`);
  if (same.length > 1) problems.push(`${same.length} sections for ${release.version}`);
  for (const line of newest.split('\n')) {
    const least = HEADINGS[line.trim()];
    if (least !== undefined && ORDER.indexOf(least) > ORDER.indexOf(release.bump))
      problems.push(`"${line.trim()}" under a ${release.bump} release`);
  }
  const flat = newest.replace(/\s+/g, ' ');
  for (const summary of release.summaries) {
    const first = summary.split('\n')[0]?.trim() ?? '';
    if (first !== '' && !flat.includes(first.replace(/\s+/g, ' ')))
      problems.push(`misses the changeset starting "${first.slice(0, 60)}"`);
  }
  return problems;
}
