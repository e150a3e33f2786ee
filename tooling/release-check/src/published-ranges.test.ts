import { describe, expect, it } from 'vitest';
import { publishedRangeProblems, readmeVersionProblems } from './published-ranges.js';

const versions = new Map([
  ['@x/jobs-core', '0.3.0'],
  ['@x/jobs-dashboard', '0.2.0'],
  ['@x/jobs-driver-pg', '0.2.0'],
]);

describe('publishedRangeProblems', () => {
  it('passes a released manifest whose peers start at the versions released', () => {
    const manifest = {
      name: '@x/jobs-cli',
      version: '0.3.0',
      dependencies: { '@x/jobs-dashboard': '^0.2.0', commander: '^14.0.3' },
      peerDependencies: { '@x/jobs-core': '>=0.3.0 <1.0.0', zod: '^4.0.0' },
      publishConfig: { provenance: true },
    };
    expect(publishedRangeProblems(manifest, versions, true)).toEqual([]);
  });

  it('names a range that misses the release, an open range, a stale floor and no provenance', () => {
    const manifest = {
      name: '@x/jobs-cli',
      version: '0.3.0',
      dependencies: { '@x/jobs-dashboard': '^0.1.0' },
      peerDependencies: { '@x/jobs-core': '>=0.1.0', '@x/jobs-driver-pg': '>=0.1.0 <1.0.0' },
    };
    expect(publishedRangeProblems(manifest, versions, true)).toEqual([
      'dependencies @x/jobs-dashboard@"^0.1.0" does not admit @x/jobs-dashboard@0.2.0, the version released',
      'peerDependencies @x/jobs-core@">=0.1.0" admits 1.0.0: stop it below the next major',
      'peer @x/jobs-core@">=0.1.0" should be ">=0.3.0 <1.0.0", from the version released with it (pnpm version-packages writes it)',
      'peer @x/jobs-driver-pg@">=0.1.0 <1.0.0" should be ">=0.2.0 <1.0.0", from the version released with it (pnpm version-packages writes it)',
      'publishConfig.provenance is not true: the registry would hold no provenance for it',
    ]);
  });

  it('keeps an already published manifest to admitting the release (its floor is history)', () => {
    const manifest = {
      name: '@x/jobs-driver-pg',
      version: '0.2.0',
      peerDependencies: { '@x/jobs-core': '>=0.2.0 <1.0.0' },
    };
    expect(publishedRangeProblems(manifest, versions, false)).toEqual([]);
    const caret = { ...manifest, peerDependencies: { '@x/jobs-core': '^0.2.0' } };
    expect(publishedRangeProblems(caret, versions, false)).toEqual([
      'peerDependencies @x/jobs-core@"^0.2.0" does not admit @x/jobs-core@0.3.0, the version released',
    ]);
  });
});

describe('readmeVersionProblems', () => {
  it('names an install line pinning a version the release leaves behind', () => {
    const readme = [
      '```sh',
      'npm install @x/jobs-driver-pg@^0.2.0 @x/jobs-core@0.2 zod',
      'npm install @x/jobs-core',
      '```',
      'See @x/jobs-core@0.1 in prose: not an install line.',
    ].join('\n');
    expect(readmeVersionProblems(readme, versions)).toEqual([
      '"npm install @x/jobs-driver-pg@^0.2.0 @x/jobs-core@0.2 zod" asks @x/jobs-core@0.2, but the release makes it 0.3.0',
    ]);
  });
});
