import { describe, expect, it } from 'vitest';
import { blockVerdict, codeBlocks } from './code-blocks.js';

describe('codeBlocks', () => {
  it('finds each fence with its language, info, body and line, and no text outside fences', () => {
    const markdown = [
      '# t',
      '```ts',
      'const a = 1;',
      '```',
      'text `inline` ```not a fence',
      '````md fragment: nested',
      '```ts',
      'inner',
      '```',
      '````',
      '```',
      '```',
    ].join('\n');
    expect(codeBlocks(markdown)).toEqual([
      { lang: 'ts', info: '', code: 'const a = 1;\n', line: 2 },
      { lang: 'md', info: 'fragment: nested', code: '```ts\ninner\n```\n', line: 6 },
      { lang: '', info: '', code: '', line: 11 },
    ]);
  });

  it('runs an unclosed fence to the end of the text', () => {
    expect(codeBlocks('```sh\nls\n')).toEqual([{ lang: 'sh', info: '', code: 'ls\n\n', line: 1 }]);
  });
});

describe('blockVerdict', () => {
  it('skips a block only for a fragment with a reason, and runs one marked run', () => {
    const block = { lang: 'ts', code: '', line: 1 };
    expect(blockVerdict({ ...block, info: 'fragment: needs the app db' })).toEqual({
      check: false,
      reason: 'needs the app db',
    });
    expect(blockVerdict({ ...block, info: 'fragment:' })).toEqual({ check: true, run: false });
    expect(blockVerdict({ ...block, info: '' })).toEqual({ check: true, run: false });
    expect(blockVerdict({ ...block, info: 'run' })).toEqual({ check: true, run: true });
  });
});
