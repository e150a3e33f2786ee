import { visibleLength } from './colour.js';

/** One column of a {@link renderTable} table. */
export interface TableColumn {
  readonly header: string;
  /** (Default: 'left') */
  readonly align?: 'left' | 'right';
}

/**
 * A plain-text table: a header row, then one line per row, columns padded to their widest cell
 * and separated by two spaces. Cells may hold ANSI colour; widths ignore it. Trailing spaces are
 * trimmed so the output diffs cleanly.
 */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  styleHeader: (text: string) => string = (text) => text,
): string {
  const widths = columns.map((column, index) =>
    Math.max(visibleLength(column.header), ...rows.map((row) => visibleLength(row[index] ?? ''))),
  );
  const line = (cells: readonly string[], style: (text: string) => string = (text) => text): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        const pad = ' '.repeat((widths[index] ?? 0) - visibleLength(cell));
        return style(column.align === 'right' ? pad + cell : cell + pad);
      })
      .join('  ')
      .trimEnd();
  return [
    line(
      columns.map((column) => column.header),
      styleHeader,
    ),
    ...rows.map((row) => line(row)),
  ].join('\n');
}
