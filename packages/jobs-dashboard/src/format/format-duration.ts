/**
 * A duration in ms as a short human string with at most two units: `850ms`, `4.2s`, `3m 12s`,
 * `5h 2m`, `3d 4h`. Negative input is formatted as its absolute value.
 */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)}ms`;
  if (abs < 60_000) {
    const seconds = abs / 1000;
    return seconds < 10 ? `${(Math.floor(seconds * 10) / 10).toFixed(1)}s` : `${Math.floor(seconds)}s`;
  }
  const units: readonly [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  const parts: string[] = [];
  let rest = abs;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.filter((part, index) => index === 0 || !part.startsWith('0')).join(' ');
}
