import { defineJobs, JobsError } from '@x/jobs-core';
import { createJobTestHarness, type JobTestHarness } from '@x/jobs-driver-memory/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mailer } from './mailer.js';
import type { Narrator } from './narrator.js';
import * as onboardingJobs from './onboarding-jobs.js';
import { onboardOrg, recordFirstLogin } from './onboarding-jobs.js';
import type { OrgDirectory } from './org-directory.js';

/** The demo's services as fakes: a mailbox that fails the first welcome, and an org table in a Map. */
function fakes() {
  const sent: string[] = [];
  const orgs = new Map<string, { workspace?: string; onboarded?: boolean }>();
  let welcomeFailures = 1;
  const mail: Mailer = {
    async send(to, template) {
      if (template === 'welcome' && welcomeFailures-- > 0) throw new JobsError('X_SMTP_UNAVAILABLE', '421');
      sent.push(`${template}:${to}`);
      return { messageId: sent.length };
    },
  };
  const directory: OrgDirectory = {
    async setWorkspace(orgId, workspace) {
      orgs.set(orgId, { ...orgs.get(orgId), workspace });
    },
    async markOnboarded(orgId) {
      orgs.set(orgId, { ...orgs.get(orgId), onboarded: true });
    },
    async counts() {
      return { orgs: orgs.size, onboarded: [...orgs.values()].filter((org) => org.onboarded).length };
    },
  };
  const lines: string[] = [];
  const identity = (text: string) => text;
  const narrator: Narrator = {
    say: (_speaker, text) => lines.push(text),
    plain: (text) => lines.push(text),
    style: {
      bold: identity,
      dim: identity,
      green: identity,
      yellow: identity,
      red: identity,
      cyan: identity,
    },
  };
  return { sent, orgs, context: () => ({ mail, orgs: directory, narrator }) };
}

// As the app does (run-demo.ts): registering the module names each job after its export, the
// durable name an enqueue needs (an unnamed handle is refused with X_JOB_UNNAMED).
defineJobs({ jobs: [onboardingJobs] });

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('onboardOrg (memory harness, virtual clock)', () => {
  it('retries only the failed welcome email, sleeps, waits for the login, and sends tips', async () => {
    const app = fakes();
    harness = createJobTestHarness({ jobs: [onboardOrg, recordFirstLogin], context: app.context });
    const { id } = await harness.run(onboardOrg, { orgId: 'acme', ownerEmail: 'owner@acme.example' });

    await harness.drain();
    expect((await harness.job(id))?.state).toBe('suspended');
    harness.clock.advance('2s');
    await harness.drain();
    expect((await harness.job(id))?.waitingFor).toBe('user.first-login');

    await harness.run(recordFirstLogin, { orgId: 'acme', userId: 'owner@acme.example' });
    const trace = await harness.drain();
    const job = await harness.job(id);
    expect(job).toMatchObject({
      state: 'done',
      attempts: 2,
      result: { workspaceId: 'ws_acme', loggedIn: true },
    });
    expect(trace.steps.provision).toMatchObject({ executions: 1 });
    expect(trace.steps['welcome-email']?.executions).toBe(2);
    expect(trace.steps['invite-owner']?.executions).toBe(1);
    expect(app.sent).toEqual([
      'welcome:owner@acme.example',
      'invite:owner@acme.example',
      'tips-for-new-admins:owner@acme.example',
    ]);
    expect(app.orgs.get('acme')).toEqual({ workspace: 'ws_acme', onboarded: true });
  });

  it('nudges the owner when no login arrives before the wait times out', async () => {
    const app = fakes();
    harness = createJobTestHarness({ jobs: [onboardOrg], context: app.context });
    const { id } = await harness.run(onboardOrg, { orgId: 'initech', ownerEmail: 'owner@initech.example' });
    await harness.drain();
    harness.clock.advance('2s');
    await harness.drain();
    harness.clock.advance('31s');
    await harness.drain();
    expect(await harness.job(id)).toMatchObject({ state: 'done', result: { loggedIn: false } });
    expect(app.sent).toContain('nudge-please-log-in:owner@initech.example');
  });
});
