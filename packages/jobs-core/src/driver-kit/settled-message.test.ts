import { describe, expect, it } from 'vitest';
import { parseSettledMessage, SETTLED_MESSAGE_MAX_BYTES, settledMessage } from './settled-message.js';

describe('settled message', () => {
  it('names the ids while they fit and is a bare marker past the bound', () => {
    expect(parseSettledMessage(settledMessage(['a', 'b-2']))).toEqual(['a', 'b-2']);
    const many = Array.from(
      { length: 200 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    expect(settledMessage(many).length).toBeGreaterThan(SETTLED_MESSAGE_MAX_BYTES - 600);
    const more = [...many, ...many];
    expect(settledMessage(more)).toBe('');
    expect(parseSettledMessage('')).toBeNull();
  });
});
