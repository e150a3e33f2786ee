import { JobsError } from '@x/jobs-core';
import type { Kysely } from 'kysely';
import type { AppDatabase } from './app-database.js';

/** The demo's mail provider, as a job body sees it through `ctx.mail`. */
export interface Mailer {
  /** Sends `template` to `to`; answers the message id. */
  send(to: string, template: string): Promise<{ readonly messageId: number }>;
}

/**
 * A mail provider over `demo_mailbox` that is flaky exactly once per (address, template) of
 * `flakyTemplates`: that first send throws `X_SMTP_UNAVAILABLE` (a 421, the kind a retry fixes),
 * remembered in `demo_mail_failures` so a restarted demo does not fail it again.
 */
export function flakyMailer(db: Kysely<AppDatabase>, flakyTemplates: readonly string[]): Mailer {
  return {
    async send(to, template) {
      const failedNow = !flakyTemplates.includes(template)
        ? undefined
        : await db
            .insertInto('demo_mail_failures')
            .values({ key: `${to}:${template}` })
            .onConflict((conflict) => conflict.doNothing())
            .returning('key')
            .executeTakeFirst();
      if (failedNow !== undefined) {
        throw new JobsError('X_SMTP_UNAVAILABLE', '421 4.3.2 service not available, try again later', {
          meta: { template },
        });
      }
      const sent = await db
        .insertInto('demo_mailbox')
        .values({ to_address: to, template })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { messageId: sent.id };
    },
  };
}
