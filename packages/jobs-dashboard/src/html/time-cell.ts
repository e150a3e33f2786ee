import { formatDuration } from '../format/format-duration.js';
import { formatInstant, formatRelative } from '../format/format-time.js';
import { type Html, html } from './escape.js';

/** An instant as relative text with the ISO time as its tooltip; `—` for null. */
export function timeCell(epochMs: number | null, now: number): Html {
  if (epochMs === null) return html`<span class="dim">—</span>`;
  const iso = formatInstant(epochMs);
  return html`<time datetime="${iso}" title="${iso}">${formatRelative(epochMs, now)}</time>`;
}

/** A duration in ms, or `—` for null. */
export function durationCell(ms: number | null): Html {
  return ms === null ? html`<span class="dim">—</span>` : html`${formatDuration(ms)}`;
}
