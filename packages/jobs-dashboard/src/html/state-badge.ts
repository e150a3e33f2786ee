import { type Html, html } from './escape.js';

/** A row state as a coloured badge (the colour comes from the `state-<name>` class). */
export function stateBadge(state: string): Html {
  return html`<span class="badge state-${state.replace(/[^a-z-]/g, '')}" data-state="${state}">${state}</span>`;
}
