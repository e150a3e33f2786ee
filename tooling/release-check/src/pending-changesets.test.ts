import { describe, expect, it } from 'vitest';
import { askedBumps, parseChangeset } from './pending-changesets.js';

describe('parseChangeset', () => {
  it('reads quoted and bare names and the summary', () => {
    const parsed = parseChangeset(
      'a',
      `---\n"@x/jobs-core": minor\n'@x/jobs-cli': patch\n@x/jobs-driver-pg: major\n---\n\nWhat changed.\n`,
    );
    expect(parsed.releases).toEqual([
      { name: '@x/jobs-core', bump: 'minor' },
      { name: '@x/jobs-cli', bump: 'patch' },
      { name: '@x/jobs-driver-pg', bump: 'major' },
    ]);
    expect(parsed.summary).toBe('What changed.');
  });

  it('reads an empty changeset (changeset --empty)', () => {
    expect(parseChangeset('e', '---\n---\n').releases).toEqual([]);
  });

  it('refuses a front matter it cannot read, naming the file', () => {
    expect(() => parseChangeset('bad', '---\n"@x/jobs-core" minor\n---\n')).toThrow(/bad\.md/);
    expect(() => parseChangeset('none', 'no front matter')).toThrow(/none\.md/);
  });
});

describe('askedBumps', () => {
  it('takes the largest bump over every changeset naming a package', () => {
    const asked = askedBumps([
      parseChangeset('a', '---\n"@x/jobs-core": patch\n"@x/jobs-cli": minor\n---\nA'),
      parseChangeset('b', '---\n"@x/jobs-core": minor\n"@x/jobs-cli": patch\n---\nB'),
    ]);
    expect(Object.fromEntries(asked)).toEqual({ '@x/jobs-core': 'minor', '@x/jobs-cli': 'minor' });
  });
});
