import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { compatibleRange, raisePeerFloors } from './peer-range.js';

describe('compatibleRange', () => {
  it('admits the next minors of a 0.x peer and stops before its 1.0', () => {
    const range = compatibleRange('0.2.0');
    expect(range).toBe('>=0.2.0 <1.0.0');
    expect(['0.2.0', '0.2.5', '0.3.0', '0.99.0'].map((v) => semver.satisfies(v, range))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['0.1.9', '1.0.0'].map((v) => semver.satisfies(v, range))).toEqual([false, false]);
  });

  it('admits what a caret admits from 1.0 on', () => {
    const versions = ['1.3.9', '1.4.0', '1.9.2', '2.0.0'];
    expect(versions.map((v) => semver.satisfies(v, compatibleRange('1.4.0')))).toEqual(
      versions.map((v) => semver.satisfies(v, '^1.4.0')),
    );
  });

  it('refuses what is no version', () => {
    expect(() => compatibleRange('next')).toThrow(/not a semver version/);
  });
});

describe('raisePeerFloors', () => {
  it('moves each @x peer to the version released with it and leaves the rest', () => {
    const manifest = {
      name: '@x/jobs-cli',
      peerDependencies: {
        '@x/jobs-core': 'workspace:>=0.1.0 <1.0.0',
        '@x/jobs-driver-pg': 'workspace:>=1.0.0',
        '@x/jobs-backfill': 'workspace:>=0.1.0 <1.0.0',
        zod: '^4.0.0',
      },
    };
    const versions = new Map([
      ['@x/jobs-core', '0.3.0'],
      ['@x/jobs-driver-pg', '1.0.0'],
      ['@x/jobs-backfill', '0.1.0'],
    ]);
    expect(raisePeerFloors(manifest, versions)).toEqual([
      '@x/jobs-core workspace:>=0.1.0 <1.0.0 → workspace:>=0.3.0 <1.0.0',
      '@x/jobs-driver-pg workspace:>=1.0.0 → workspace:>=1.0.0 <2.0.0',
    ]);
    expect(manifest.peerDependencies).toEqual({
      '@x/jobs-core': 'workspace:>=0.3.0 <1.0.0',
      '@x/jobs-driver-pg': 'workspace:>=1.0.0 <2.0.0',
      '@x/jobs-backfill': 'workspace:>=0.1.0 <1.0.0',
      zod: '^4.0.0',
    });
  });
});
