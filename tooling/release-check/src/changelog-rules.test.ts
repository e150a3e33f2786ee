import { describe, expect, it } from 'vitest';
import { changelogProblems } from './changelog-rules.js';

const release = {
  name: '@x/jobs-driver-pg',
  version: '0.2.0',
  bump: 'minor' as const,
  summaries: ['Claims take higher priority first.\n\nMore text.', 'Fix a leak.'],
};

describe('changelogProblems', () => {
  it('passes what changeset version writes for a minor', () => {
    const text = [
      '# @x/jobs-driver-pg',
      '',
      '## 0.2.0',
      '',
      '### Minor Changes',
      '',
      '- Claims take higher priority first.',
      '',
      '  More text.',
      '',
      '### Patch Changes',
      '',
      '- Fix a leak.',
      '',
    ].join('\n');
    expect(changelogProblems(text, release)).toEqual([]);
  });

  it('names a major heading under a minor, a wrong version and a missing changeset', () => {
    const text = [
      '# @x/jobs-driver-pg',
      '',
      '## 1.0.0',
      '',
      '### Major Changes',
      '',
      '- Fix a leak.',
      '',
    ].join('\n');
    expect(changelogProblems(text, release)).toEqual([
      'newest section is "## 1.0.0", not "## 0.2.0"',
      '"### Major Changes" under a minor release',
      'misses the changeset starting "Claims take higher priority first."',
    ]);
  });

  it('names a repeated version section', () => {
    const section = [
      '## 0.2.0',
      '',
      '### Minor Changes',
      '',
      '- Claims take higher priority first.',
      '- Fix a leak.',
      '',
    ];
    const text = ['# @x/jobs-driver-pg', '', ...section, ...section].join('\n');
    expect(changelogProblems(text, release)).toEqual(['2 sections for 0.2.0']);
  });
});
