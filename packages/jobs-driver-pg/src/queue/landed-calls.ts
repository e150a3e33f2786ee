/** One fenced call of a batched statement: the row and the claim token it is fenced on. */
export interface FencedCall {
  readonly id: string;
  readonly token: string;
}

/**
 * Per call of a batch, whether it landed, from the 1-based positions the batched statement
 * answered (SQL_ACK_MANY, SQL_START_MANY). An (id, token) pair given twice lands once: its first
 * occurrence answers true, the repeats false, whichever position the statement named.
 */
export function landedCalls(items: readonly FencedCall[], positions: readonly number[]): boolean[] {
  const landed = new Set<string>();
  for (const position of positions) {
    const item = items[position - 1];
    if (item !== undefined) landed.add(`${item.id}\u0000${item.token}`);
  }
  return items.map((item) => landed.delete(`${item.id}\u0000${item.token}`));
}
