import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readmeBlocks, readmes, runBlock, typecheckBlocks, WORKSPACE_ROOT } from './readme-blocks.js';

it('every ```ts block of every package README and the root README type-checks, fragments skipped with a reason', async () => {
  const files = await readmes();
  const blocks = await readmeBlocks(files);
  let fences = 0;
  for (const file of files) {
    fences +=
      (await readFile(join(WORKSPACE_ROOT, file), 'utf8')).match(/^```(ts|typescript)\b/gm)?.length ?? 0;
  }
  expect(blocks, 'every ```ts fence opens a block (an info string with a backtick would not)').toHaveLength(
    fences,
  );
  const skipped = blocks.filter((block) => block.skipped !== undefined);
  const errors = await typecheckBlocks(blocks);
  console.info(
    `doc tests: ${blocks.length - skipped.length} of ${blocks.length} README blocks type-checked; ` +
      `${skipped.length} fragments skipped:\n` +
      skipped.map((block) => `  ${block.readme}:${block.line}: ${block.skipped}`).join('\n'),
  );
  expect(blocks.length - skipped.length, 'README blocks checked').toBeGreaterThanOrEqual(17);
  expect(errors.map((error) => `${error.at}: ${error.message}`)).toEqual([]);
});

it('every README block marked ```ts run runs to its end on the memory driver', async () => {
  const blocks = (await readmeBlocks(await readmes())).filter((block) => block.run === true);
  expect(blocks.length, 'README blocks run').toBeGreaterThanOrEqual(4);
  const failures: string[] = [];
  for (const block of blocks) {
    const { code, output } = await runBlock(block);
    if (code !== 0) failures.push(`${block.readme}:${block.line} exited ${code}:\n${output}`);
  }
  console.info(`doc tests: ${blocks.length} README blocks run on the memory driver`);
  expect(failures).toEqual([]);
});
