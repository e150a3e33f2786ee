import { formatDuration, formatInZone } from '@x/jobs-dashboard';
import { describe, expect, it } from 'vitest';
import { createPalette, shouldUseColour, stripAnsi, visibleLength } from './colour.js';
import { renderTable } from './table.js';

describe('renderTable', () => {
  it('pads columns to the widest cell, right-aligns numbers, ignores colour in widths', () => {
    const p = createPalette(true);
    const text = renderTable(
      [{ header: 'QUEUE' }, { header: 'READY', align: 'right' }],
      [
        [p.bold('default'), '3'],
        ['emails', '120'],
      ],
    );
    const lines = text.split('\n').map((line) => stripAnsi(line));
    expect(lines).toEqual(['QUEUE    READY', 'default      3', 'emails     120']);
    expect(visibleLength(p.red('abc'))).toBe(3);
  });
});

describe('shouldUseColour', () => {
  it('colours a TTY only, and obeys NO_COLOR over FORCE_COLOR', () => {
    expect(shouldUseColour({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColour({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColour({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(shouldUseColour({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColour({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(createPalette(false).red('x')).toBe('x');
  });
});

describe('formatDuration / formatInZone', () => {
  it('prints at most two units', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(4_250)).toBe('4.2s');
    expect(formatDuration(192_000)).toBe('3m 12s');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 5_000)).toBe('3d 4h');
    expect(formatDuration(2 * 3_600_000 + 30_000)).toBe('2h');
  });

  it('prints wall-clock time in the zone with its offset', () => {
    expect(formatInZone(Date.UTC(2026, 10, 30, 8, 0), 'America/Bogota')).toBe('2026-11-30 03:00 GMT-5');
    expect(formatInZone(Date.UTC(2026, 10, 30, 8, 0), 'UTC')).toBe('2026-11-30 08:00 GMT+0');
  });
});
