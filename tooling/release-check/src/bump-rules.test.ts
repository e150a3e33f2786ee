import { describe, expect, it } from 'vitest';
import {
  bumpBetween,
  internalEdges,
  judgeBumps,
  resolveSpecifier,
  type VersionedManifest,
} from './bump-rules.js';
import type { Bump } from './pending-changesets.js';

const core: VersionedManifest = { name: '@x/jobs-core', version: '0.2.0' };
const driver: VersionedManifest = {
  name: '@x/jobs-driver-pg',
  version: '0.2.0',
  peerDependencies: { '@x/jobs-core': 'workspace:>=0.2.0 <1.0.0' },
};
const dashboard: VersionedManifest = {
  name: '@x/jobs-dashboard',
  version: '0.2.0',
  peerDependencies: { '@x/jobs-core': 'workspace:>=0.2.0 <1.0.0' },
};
const cli: VersionedManifest = {
  name: '@x/jobs-cli',
  version: '0.2.0',
  dependencies: { '@x/jobs-dashboard': 'workspace:^' },
  peerDependencies: {
    '@x/jobs-core': 'workspace:>=0.2.0 <1.0.0',
    '@x/jobs-driver-pg': 'workspace:>=0.2.0 <1.0.0',
  },
};
const all = [core, driver, dashboard, cli];

/** Judges a release of `all` where `after` gives the new versions and `asked` the changesets. */
function judge(after: Record<string, string>, asked: Record<string, Bump>, manifests = all) {
  const verdicts = judgeBumps({
    before: new Map(manifests.map((m) => [m.name, m.version])),
    after: new Map(manifests.map((m) => [m.name, after[m.name] ?? m.version])),
    asked: new Map(Object.entries(asked)),
    edges: internalEdges(manifests),
  });
  return Object.fromEntries(verdicts.map((v) => [v.name, v]));
}

describe('bumpBetween', () => {
  it('classifies 0.x moves as changesets makes them', () => {
    expect(bumpBetween('0.1.0', '0.1.0')).toBe('none');
    expect(bumpBetween('0.1.0', '0.1.1')).toBe('patch');
    expect(bumpBetween('0.1.0', '0.2.0')).toBe('minor');
    expect(bumpBetween('0.1.0', '1.0.0')).toBe('major');
    expect(bumpBetween('0.0.0', '0.1.0')).toBe('minor');
    expect(() => bumpBetween('0.2.0', '0.1.0')).toThrow(/backwards/);
  });
});

describe('resolveSpecifier', () => {
  it('reads workspace: forms as changesets does', () => {
    expect(resolveSpecifier('workspace:*', '0.2.0')).toBe('0.2.0');
    expect(resolveSpecifier('workspace:^', '0.2.0')).toBe('^0.2.0');
    expect(resolveSpecifier('workspace:~', '0.2.0')).toBe('~0.2.0');
    expect(resolveSpecifier('workspace:>=0.2.0 <1.0.0', '0.3.0')).toBe('>=0.2.0 <1.0.0');
    expect(resolveSpecifier('^0.28.0', '0.28.1')).toBe('^0.28.0');
    expect(resolveSpecifier('file:../core', '0.2.0')).toBeUndefined();
  });
});

describe('judgeBumps', () => {
  it('passes a core minor that leaves its dependents alone', () => {
    const verdicts = judge({ '@x/jobs-core': '0.3.0' }, { '@x/jobs-core': 'minor' });
    expect(Object.values(verdicts).flatMap((v) => v.problems)).toEqual([]);
    expect(verdicts['@x/jobs-driver-pg']?.bump).toBe('none');
  });

  it('fails a dependent bumped past its own changesets', () => {
    const verdicts = judge(
      { '@x/jobs-core': '0.3.0', '@x/jobs-driver-pg': '1.0.0' },
      { '@x/jobs-core': 'minor', '@x/jobs-driver-pg': 'minor' },
    );
    expect(verdicts['@x/jobs-driver-pg']?.problems).toEqual([
      'bumped major (0.2.0 → 1.0.0) but its changesets ask minor',
    ]);
  });

  it('fails a caret peer at 0.x that a core minor leaves, naming the range', () => {
    const caret = { ...driver, peerDependencies: { '@x/jobs-core': 'workspace:^' } };
    const verdicts = judge(
      { '@x/jobs-core': '0.3.0', '@x/jobs-driver-pg': '1.0.0' },
      { '@x/jobs-core': 'minor' },
      [core, caret],
    );
    const problems = verdicts['@x/jobs-driver-pg']?.problems ?? [];
    expect(problems).toHaveLength(2);
    expect(problems[1]).toMatch(
      /peer range \^0\.2\.0 for @x\/jobs-core excludes @x\/jobs-core@0\.3\.0, a minor/,
    );
  });

  it('allows a major of every dependent, transitively, when core itself asks a major', () => {
    const verdicts = judge(
      {
        '@x/jobs-core': '1.0.0',
        '@x/jobs-driver-pg': '1.0.0',
        '@x/jobs-dashboard': '1.0.0',
        '@x/jobs-cli': '1.0.0',
      },
      { '@x/jobs-core': 'major' },
    );
    expect(Object.values(verdicts).flatMap((v) => v.problems)).toEqual([]);
    expect(verdicts['@x/jobs-cli']?.allowed).toBe('major');
    expect(verdicts['@x/jobs-cli']?.reasons.some((r) => /leaves its peerDependencies range/.test(r))).toBe(
      true,
    );
  });

  it('allows a patch where a dependency range must move, and no more', () => {
    const patched = judge(
      { '@x/jobs-dashboard': '0.3.0', '@x/jobs-cli': '0.2.1' },
      { '@x/jobs-dashboard': 'minor' },
    );
    expect(patched['@x/jobs-cli']?.problems).toEqual([]);
    expect(patched['@x/jobs-cli']?.allowed).toBe('patch');
    const minor = judge(
      { '@x/jobs-dashboard': '0.3.0', '@x/jobs-cli': '0.3.0' },
      { '@x/jobs-dashboard': 'minor' },
    );
    expect(minor['@x/jobs-cli']?.problems[0]).toMatch(
      /^bumped minor \(0\.2\.0 → 0\.3\.0\) but its changesets ask none \(/,
    );
  });

  it('fails a package bumped less than its changesets ask', () => {
    const verdicts = judge({ '@x/jobs-core': '0.2.1' }, { '@x/jobs-core': 'minor' });
    expect(verdicts['@x/jobs-core']?.problems).toEqual(['bumped patch but its changesets ask minor']);
  });
});
