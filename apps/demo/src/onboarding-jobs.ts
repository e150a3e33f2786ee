import { job, publishEvent } from '@x/jobs-core';
import { z } from 'zod';
import './job-context.js';

/**
 * A new customer's onboarding: provision → welcome email (the provider fails it once; only that
 * step runs again) → invite the owner → let the account settle (a durable sleep) → wait for the
 * owner's first login (an event {@link recordFirstLogin} publishes) → tips or a nudge → done.
 */
export const onboardOrg = job({
  input: z.object({ orgId: z.string().min(1), ownerEmail: z.string().email() }),
  idempotencyKey: ({ orgId }) => `onboard:${orgId}`,
  tenant: ({ orgId }) => orgId,
  retry: { attempts: 4, backoff: 'fixed', delay: '1s', jitter: false },
  // publishEvent wakes the waiting run at once; the poll is only the safety net.
  eventPoll: '10s',
  async run({ input, step, ctx }) {
    const { orgId, ownerEmail } = input;
    const { workspaceId } = await step.run('provision', async () => {
      const id = `ws_${orgId}`;
      await ctx.orgs.setWorkspace(orgId, id);
      ctx.narrator.say('step', `provision: workspace ${id} created`);
      return { workspaceId: id };
    });
    await step.run('welcome-email', async () => {
      ctx.narrator.say('step', `welcome-email: sending to ${ownerEmail} …`);
      const sent = await ctx.mail.send(ownerEmail, 'welcome');
      ctx.narrator.say('step', `welcome-email: delivered (message #${sent.messageId})`);
      return sent;
    });
    await step.run('invite-owner', async () => {
      const sent = await ctx.mail.send(ownerEmail, 'invite');
      ctx.narrator.say('step', `invite-owner: invite sent to ${ownerEmail} (message #${sent.messageId})`);
      return sent;
    });
    await step.sleep('settle-in', '2s');
    const login = await step.waitForEvent('first-login', 'user.first-login', {
      schema: z.object({ orgId: z.string(), userId: z.string() }),
      match: { orgId },
      timeout: '30s',
    });
    await step.run('nudge', async () => {
      const template = login === null ? 'nudge-please-log-in' : 'tips-for-new-admins';
      await ctx.mail.send(ownerEmail, template);
      ctx.narrator.say(
        'step',
        login === null
          ? 'nudge: no login within 30s, so a reminder goes out'
          : `nudge: ${login.userId} logged in, so they get tips instead of a reminder`,
      );
      return { template };
    });
    await step.run('mark-onboarded', () => ctx.orgs.markOnboarded(orgId));
    return { workspaceId, loggedIn: login !== null };
  },
});

/** The owner's first login, as the web app would record it: publishes the event {@link onboardOrg} waits for. */
export const recordFirstLogin = job({
  input: z.object({ orgId: z.string(), userId: z.string() }),
  idempotencyKey: ({ orgId }) => `first-login:${orgId}`,
  tenant: ({ orgId }) => orgId,
  async run({ input, step, ctx }) {
    await step.run('publish', async () => {
      await publishEvent('user.first-login', input);
      ctx.narrator.say(
        'login',
        `${input.userId} logged in → publishEvent('user.first-login', { orgId: '${input.orgId}' })`,
      );
    });
  },
});

/** What the cron task enqueues: a digest of the app's numbers. */
export const sendUsageDigest = job({
  input: z.object({}),
  idempotencyKey: () => 'usage-digest',
  tenant: 'none',
  async run({ ctx }) {
    const { orgs, onboarded } = await ctx.orgs.counts();
    ctx.narrator.say('cron', `sendUsageDigest ran: orgs ${orgs}, onboarded ${onboarded}`);
    return { orgs, onboarded };
  },
});
