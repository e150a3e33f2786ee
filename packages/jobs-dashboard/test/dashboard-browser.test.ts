import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorker, JobsError, job, resetJobDriver, setJobDriver, type Worker } from '@x/jobs-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pgliteBackend, postgresBackend, type TestBackend } from './backends.js';
import { launchChromium, type TestBrowser } from './browser.js';
import { enqueueRow, killRow } from './memory-rows.js';
import { type ServedDashboard, serveDashboard } from './serve.js';

const TOKEN = `browser-test-${randomUUID()}`;
/** Screenshots go to docs/ when asked (`X_DASHBOARD_SCREENSHOTS=1`), else to a scratch directory. */
const SCRATCH = path.join(tmpdir(), 'x-jobs-dashboard-shots');
const SHOTS = process.env.X_DASHBOARD_SCREENSHOTS
  ? fileURLToPath(new URL('../docs', import.meta.url))
  : SCRATCH;

let chromium: TestBrowser;
beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  chromium = await launchChromium();
});
afterAll(() => chromium?.close());

/** A page that records script errors and dialogs, so a test can assert nothing ran. */
async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await chromium.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A CSP violation (an inline script that tried to run) is reported on the console.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, errors };
}

describe.each([
  ['PostgreSQL', postgresBackend],
  ['PGlite', pgliteBackend],
] as const)('the dashboard in Chromium over %s', (label, open) => {
  const suffix = randomUUID().slice(0, 8);
  const queue = `q-${randomUUID()}`;
  const failing = new Set<number>();
  const charge = job({
    name: `charge-${suffix}`,
    queue,
    input: z.object({ n: z.number().int() }),
    idempotencyKey: ({ n }) => `charge:${n}`,
    tenant: 'none',
    retry: { attempts: 1 },
    async run({ input, step }) {
      await step.run('reserve', () => ({ reserved: input.n }));
      return step.run('capture', () => {
        if (failing.delete(input.n)) throw new JobsError('X_CARD_DECLINED', 'card declined');
        return { captured: input.n };
      });
    },
  });
  let backend: TestBackend;
  let served: ServedDashboard;
  let worker: Worker;
  // The README shows the PostgreSQL run's screenshots; the PGlite run's go to the scratch directory.
  const shot = (name: string) =>
    label === 'PostgreSQL' ? path.join(SHOTS, `${name}.png`) : path.join(SCRATCH, `pglite-${name}.png`);
  const state = async (id: string) => (await backend.driver.introspect?.get(id))?.state;

  beforeAll(async () => {
    backend = await open();
    setJobDriver(backend.driver);
    served = await serveDashboard({
      driver: backend.driver,
      token: TOKEN,
      pollIntervalMs: 500,
      title: 'acme jobs',
    });
    worker = createWorker({
      driver: backend.driver,
      context: () => ({}),
      registry: { get: (name) => (name === charge.name ? charge : undefined) },
      queues: [queue],
      concurrency: 2,
      idlePollMaxMs: 250,
      handleSignals: false,
    });
    await worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await served?.close();
    resetJobDriver();
    await backend?.destroy();
  });

  it('finds a dead job, clicks retry, and sees it run to done', async () => {
    failing.add(1);
    const { id } = await charge.enqueue({ n: 1 });
    await expect.poll(() => state(id), { timeout: 20_000, interval: 100 }).toBe('dead');

    const { page, errors } = await openPage();
    await page.goto(`${served.url}/?token=${TOKEN}`);
    await page.getByRole('link', { name: 'Dead letters' }).click();
    const row = page.locator(`tr[data-job-id="${id}"]`);
    await row.waitFor();
    expect(await row.locator('.error').textContent()).toContain('X_CARD_DECLINED');
    await page.screenshot({ path: shot('dead-letters'), fullPage: true });

    await row.locator('button[data-action="retry"]').click();
    await expect.poll(() => state(id), { timeout: 20_000, interval: 100 }).toBe('done');
    await page.goto(`${served.url}/jobs/${id}`);
    await page.locator('[data-field="state"] [data-state="done"]').waitFor();
    expect(await page.locator('tr[data-step="capture"] [data-state]').textContent()).toBe('completed');
    expect(await page.locator('.timeline').textContent()).toContain('attempt 1 started');
    // The dead attempt's error stays listed, its stack collapsed until asked for (no script: CSP holds).
    const failed = page.locator('.attempt-errors li[data-attempt="1"]');
    expect(await failed.textContent()).toContain('X_CARD_DECLINED');
    expect(await failed.locator('[data-field="step"]').textContent()).toBe('capture');
    const stack = failed.locator('pre.stack');
    expect(await stack.isVisible()).toBe(false);
    await failed.locator('summary').click();
    expect(await stack.isVisible()).toBe(true);
    expect(await stack.textContent()).toMatch(/card declined\n\s+at /);
    await page.screenshot({ path: shot('job'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pauses a queue from the queues page: a new job stays ready, counted live without a reload', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${served.url}/`);
    const row = page.locator(`tr[data-queue="${queue}"]`);
    await row.locator('button[data-action="pause"]').click();
    await row.locator('[data-field="paused"] .badge').waitFor();
    await page.evaluate(() => {
      (globalThis as { sameDocument?: boolean }).sameDocument = true;
    });

    const { id } = await charge.enqueue({ n: 2 });
    // The script updates the count in place from api/queues.
    await row.locator('[data-field="ready"] a').filter({ hasText: /^1$/ }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // Several worker polls pass; the row stays ready while the queue is paused.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await state(id)).toBe('ready');
    await page.screenshot({ path: shot('queues-paused'), fullPage: true });

    await row.locator('button[data-action="resume"]').click();
    await expect.poll(() => state(id), { timeout: 20_000, interval: 100 }).toBe('done');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a job named and keyed with <script> as text: nothing executes', async () => {
    const xssQueue = `q-${randomUUID()}`;
    const name = '<script>window.pwned = "name"</script>';
    const id = await enqueueRow(backend.driver, {
      name,
      queue: xssQueue,
      idempotencyKey: '"><img src=x onerror="window.pwned = \'key\'"><script>window.pwned = "key"</script>',
      payload: { note: '<script>window.pwned = "payload"</script>', password: 'hunter2' },
    });
    await killRow(backend.driver, xssQueue, {
      code: 'X_<script>',
      message: '<img src=x onerror="window.pwned=1">',
    });

    const { page, errors } = await openPage();
    for (const target of ['/', `/dead?queue=${encodeURIComponent(xssQueue)}`, `/jobs/${id}`]) {
      const response = await page.goto(`${served.url}${target}`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
      expect(await page.locator('main script, main img').count()).toBe(0);
    }
    expect(await page.locator('[data-field="name"]').textContent()).toBe(name);
    expect(await page.locator('[data-field="key"]').textContent()).toContain('<script>');
    const body = (await page.locator('main').textContent()) ?? '';
    // The payload shows as its JSON text (quotes escaped by JSON.stringify, tags as text).
    expect(body).toContain('<script>window.pwned = \\"payload\\"</script>');
    expect(body).not.toContain('hunter2');
    expect(errors).toEqual([]);
    await page.screenshot({ path: shot('untrusted-text'), fullPage: true });
    await page.close();
  });
});
