/**
 * The dashboard's one script, served as `assets/dashboard.js` (same origin, so the strict CSP
 * `script-src 'self'` admits it; no inline script anywhere). Progressive enhancement only: every
 * page and action works without it. It
 * - asks `data-confirm` before destructive forms submit;
 * - polls the page's JSON endpoint (`data-live-src`) every `data-poll-ms`: on the queues page it
 *   updates the counts in place (never through innerHTML: only `textContent`), elsewhere it
 *   reloads the page when the data changed and no form field has focus;
 * - marks the header `live` / `offline`, and stamps `data-live-at` on `<body>` after each poll.
 *
 * Plain ES2020, no dependencies, no build.
 */
export const CLIENT_SCRIPT = String.raw`(() => {
  'use strict';
  const body = document.body;
  document.addEventListener('submit', (event) => {
    const question = event.target instanceof HTMLFormElement ? event.target.getAttribute('data-confirm') : null;
    if (question !== null && !window.confirm(question)) event.preventDefault();
  });
  const src = body.getAttribute('data-live-src');
  if (src === null) return;
  const mode = body.getAttribute('data-live-mode');
  const every = Math.max(500, Number(body.getAttribute('data-poll-ms')) || 2000);
  const status = document.querySelector('[data-live-status]');
  let baseline = null;
  const busy = () => {
    const el = document.activeElement;
    return el !== null && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA');
  };
  const reload = () => {
    if (busy()) return false;
    window.location.reload();
    return true;
  };
  const duration = (ms) => {
    if (ms < 1000) return Math.round(ms) + 'ms';
    if (ms < 60000) return ms < 10000 ? (Math.floor(ms / 100) / 10).toFixed(1) + 's' : Math.floor(ms / 1000) + 's';
    const units = [['d', 86400000], ['h', 3600000], ['m', 60000], ['s', 1000]];
    const parts = [];
    let rest = ms;
    for (const [unit, size] of units) {
      const count = Math.floor(rest / size);
      if (count > 0 || parts.length > 0) parts.push(count + unit);
      rest -= count * size;
      if (parts.length === 2) break;
    }
    return parts.filter((part, index) => index === 0 || !part.startsWith('0')).join(' ');
  };
  const updateQueues = (data) => {
    const rows = new Map();
    for (const row of document.querySelectorAll('tr[data-queue]')) rows.set(row.getAttribute('data-queue'), row);
    const names = data.queues.map((queue) => queue.queue);
    if (names.length !== rows.size || names.some((name) => !rows.has(name))) return reload();
    for (const queue of data.queues) {
      const row = rows.get(queue.queue);
      const paused = row.querySelector('[data-field="paused"]');
      if (paused !== null && (paused.textContent.trim() === 'paused') !== queue.paused) return reload();
      for (const [state, count] of Object.entries(queue.counts)) {
        const cell = row.querySelector('[data-field="' + state + '"] a');
        if (cell !== null) cell.textContent = String(count);
      }
      const oldest = row.querySelector('[data-field="oldestReadyAgeMs"]');
      if (oldest !== null) oldest.textContent = queue.oldestReadyAgeMs === null ? '\u2014' : duration(queue.oldestReadyAgeMs);
    }
    return false;
  };
  const tick = async () => {
    try {
      const response = await fetch(src, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      const data = await response.json();
      if (mode === 'queues') {
        if (updateQueues(data)) return;
      } else {
        const text = JSON.stringify(data);
        if (baseline === null) baseline = text;
        else if (text !== baseline && reload()) return;
      }
      if (status !== null) {
        status.textContent = 'live';
        status.removeAttribute('data-stale');
      }
      body.setAttribute('data-live-at', String(Date.now()));
    } catch {
      if (status !== null) {
        status.textContent = 'offline';
        status.setAttribute('data-stale', '');
      }
    }
    setTimeout(tick, every);
  };
  tick();
})();
`;
