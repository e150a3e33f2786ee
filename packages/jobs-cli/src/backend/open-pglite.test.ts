import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PGLITE_PACKAGES } from './open-pglite.js';

const installSection = async (readme: URL) => {
  const text = await readFile(readme, 'utf8');
  return /^## Install$([\s\S]*?)^## /m.exec(text)?.[1] ?? '';
};

describe('the --driver pglite install hint', () => {
  it('is word for word the install line of the pg README (the one the pack check runs) and of this README', async () => {
    const line = `npm install ${PGLITE_PACKAGES.join(' ')}`;
    expect(await installSection(new URL('../../../jobs-driver-pg/README.md', import.meta.url))).toMatch(
      new RegExp(`^${line}$`, 'm'),
    );
    expect(await installSection(new URL('../../README.md', import.meta.url))).toMatch(
      new RegExp(`^${line}\\s`, 'm'),
    );
  });
});
