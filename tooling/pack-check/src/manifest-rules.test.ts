import { describe, expect, it } from 'vitest';
import { manifestProblems } from './manifest-rules.js';

const files = new Set(['dist/index.js', 'dist/index.d.ts', 'package.json']);
const good = {
  name: '@x/jobs-thing',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './package.json': './package.json',
  },
  dependencies: { kysely: '^0.28.19' },
  peerDependencies: { '@x/jobs-core': '^0.1.0' },
};

describe('manifestProblems', () => {
  it('passes a manifest that keeps every rule', () => {
    expect(manifestProblems(good, files)).toEqual([]);
  });

  it('names each broken rule', () => {
    const bad = {
      name: '@x/jobs-thing',
      exports: {
        '.': { '@x/source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' },
        './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
      },
      dependencies: { '@x/jobs-core': 'workspace:^', pg: '8.23.1' },
    };
    const problems = manifestProblems(bad, files);
    expect(problems).toHaveLength(9);
    expect(problems.join('\n')).toMatch(/@x\/source/);
    expect(problems.join('\n')).toMatch(/workspace: or catalog:/);
    expect(problems.join('\n')).toMatch(/"default" condition/);
    expect(problems.join('\n')).toMatch(/extra\.js, not in the tarball/);
    expect(problems.join('\n')).toMatch(/pg is pinned/);
    expect(problems.join('\n')).toMatch(/is a dependency: make it a peerDependency/);
  });

  it('does not ask core to be its own peer', () => {
    const { peerDependencies: _none, ...core } = { ...good, name: '@x/jobs-core' };
    expect(manifestProblems(core, files)).toEqual([]);
  });
});
