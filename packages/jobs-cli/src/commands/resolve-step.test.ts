import { describe, expect, it } from 'vitest';
import { parseResolution } from './resolve-step.js';

describe('parseResolution', () => {
  it('reads --ran with a JSON output, and --not-ran', () => {
    expect(parseResolution({ ran: true, output: '{"chargeId":"ch_1"}' })).toEqual({
      ran: true,
      output: { chargeId: 'ch_1' },
    });
    expect(parseResolution({ ran: true, output: 'null' })).toEqual({ ran: true, output: null });
    expect(parseResolution({ notRan: true })).toEqual({ ran: false });
  });

  it.each<[{ ran?: boolean; notRan?: boolean; output?: string }, string]>([
    [{}, 'neither flag'],
    [{ ran: true, notRan: true }, 'both flags'],
    [{ ran: true }, '--ran without --output'],
    [{ ran: true, output: '{oops' }, 'malformed JSON'],
    [{ notRan: true, output: '1' }, '--output with --not-ran'],
  ])('refuses %j (%s) as a usage error', (flags) => {
    expect(() => parseResolution(flags)).toThrow(expect.objectContaining({ code: 'X_CLI_USAGE' }));
  });
});
