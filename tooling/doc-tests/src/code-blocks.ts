/**
 * Fenced code blocks of a Markdown text. Only what the doc tests need: fences of three or more
 * backticks at the start of a line (no indentation), the info string after them, and the body up
 * to the closing fence of at least as many backticks.
 */
export interface CodeBlock {
  /** The first word of the info string (`ts` for "```ts fragment: …"); empty without one. */
  readonly lang: string;
  /** The info string after the language, trimmed (`fragment: …`); empty without one. */
  readonly info: string;
  /** The body, without the fences, ending in a newline. */
  readonly code: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
}

/** Every fenced block of `markdown`, in order. An unclosed fence runs to the end of the text. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})\s*([^`]*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const fence = open[1] ?? '```';
    const [lang = '', ...rest] = (open[2] ?? '').trim().split(/\s+/);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^${fence}\`*\\s*$`).test(lines[j] ?? '')) {
      body.push(lines[j] ?? '');
      j += 1;
    }
    blocks.push({
      lang,
      info: rest.join(' '),
      code: body.length === 0 ? '' : `${body.join('\n')}\n`,
      line: i + 1,
    });
    i = j;
  }
  return blocks;
}

/**
 * What the doc tests do with a ```ts block: check it (and, for `run`, run it too), or skip it for
 * the reason its fence gives.
 */
export type BlockVerdict =
  | { readonly check: true; readonly run: boolean }
  | { readonly check: false; readonly reason: string };

/**
 * A ```ts block is checked unless its fence says `fragment: <reason>` (the reason is required: a
 * fragment without one is checked like any block); a fence saying `run` is checked and run.
 */
export function blockVerdict(block: CodeBlock): BlockVerdict {
  const fragment = /^fragment:\s*(\S.*)$/.exec(block.info);
  if (fragment !== null) return { check: false, reason: fragment[1] ?? '' };
  return { check: true, run: block.info === 'run' };
}
