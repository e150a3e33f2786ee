/** What a string cut short ends with. */
export const TRUNCATED_MARK = '… [truncated]';

/** UTF-8 bytes the code unit(s) at `i` of `text` take inside a JSON string, and how many units they are. */
function jsonCost(text: string, i: number): readonly [bytes: number, units: number] {
  const unit = text.charCodeAt(i);
  if (unit === 0x22 || unit === 0x5c) return [2, 1];
  if (unit < 0x20) return [unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6, 1];
  if (unit < 0x80) return [1, 1];
  if (unit < 0x800) return [2, 1];
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
    return [6, 1]; // a lone surrogate: JSON.stringify writes \udXXX
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) return [6, 1];
  return [3, 1];
}

/** UTF-8 bytes of `text` as the inside of a JSON string (without its quotes). */
export function jsonTextBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const [cost, units] = jsonCost(text, i);
    bytes += cost;
    i += units;
  }
  return bytes;
}

/**
 * `text` when it takes at most `maxBytes` inside a JSON string; else its longest prefix (never
 * splitting a surrogate pair) that, with {@link TRUNCATED_MARK} after it, does. `cut` tells which.
 * A `maxBytes` smaller than the mark answers the empty string.
 */
export function cutToJsonBytes(
  text: string,
  maxBytes: number,
): { readonly text: string; readonly cut: boolean } {
  if (text.length <= maxBytes / 6 || jsonTextBytes(text) <= maxBytes) return { text, cut: false };
  const budget = maxBytes - jsonTextBytes(TRUNCATED_MARK);
  if (budget < 0) return { text: '', cut: true };
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const [cost, units] = jsonCost(text, end);
    if (bytes + cost > budget) break;
    bytes += cost;
    end += units;
  }
  return { text: text.slice(0, end) + TRUNCATED_MARK, cut: true };
}
