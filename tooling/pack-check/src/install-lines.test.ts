import { describe, expect, it } from 'vitest';
import { readInstallLines, specName } from './install-lines.js';

describe('readInstallLines', () => {
  it('reads the npm install lines of the Install section only, comments dropped', () => {
    const readme = [
      '# pkg',
      'npm install not-this',
      '## Install',
      '```sh',
      'npm install @x/jobs-driver-pg @x/jobs-core zod   # the driver',
      '# the embedded entry:',
      'npm install -D @x/jobs-driver-pg kysely@^0.28.19',
      'pnpm add something',
      '```',
      '## Example',
      'npm install nor-this',
    ].join('\n');
    expect(readInstallLines(readme)).toEqual([
      {
        text: 'npm install @x/jobs-driver-pg @x/jobs-core zod',
        specs: ['@x/jobs-driver-pg', '@x/jobs-core', 'zod'],
        flags: [],
      },
      {
        text: 'npm install -D @x/jobs-driver-pg kysely@^0.28.19',
        specs: ['@x/jobs-driver-pg', 'kysely@^0.28.19'],
        flags: ['-D'],
      },
    ]);
  });

  it('answers no line for a README without an Install section', () => {
    expect(readInstallLines('# pkg\nnpm install x\n')).toEqual([]);
  });

  it('names the package of a spec', () => {
    expect(specName('kysely@^0.28.19')).toBe('kysely');
    expect(specName('@x/jobs-core')).toBe('@x/jobs-core');
    expect(specName('@types/pg@8')).toBe('@types/pg');
  });
});
