import { trace } from '@opentelemetry/api';
import { withOutbox } from '@x/jobs-outbox';
import type { Kysely } from 'kysely';
import type { AppDatabase } from './app-database.js';
import type { Narrator } from './narrator.js';
import { onboardOrg } from './onboarding-jobs.js';

/** A sign-up the demo plays: who, and whether the payment goes through. */
export interface SignUp {
  readonly orgId: string;
  readonly name: string;
  readonly ownerEmail: string;
  readonly payment: 'accepted' | 'declined';
}

class PaymentDeclined extends Error {}

/**
 * Creates the org and enqueues its onboarding in one transaction of the app's own database:
 * `withOutbox(trx, …)` makes `onboardOrg.enqueue` stage the job on `trx`, so it exists if and only
 * if the org row commits. A declined payment throws inside the transaction: both roll back.
 * Answers the onboarding job's id, or null when rolled back. It runs in a `POST /signup` span, as a
 * request handler would: with an OpenTelemetry SDK on, the job's spans join that trace.
 */
export function signUp(db: Kysely<AppDatabase>, narrator: Narrator, signup: SignUp): Promise<string | null> {
  return trace
    .getTracer('x-jobs-demo')
    .startActiveSpan('POST /signup', (span) => commitSignUp(db, narrator, signup).finally(() => span.end()));
}

async function commitSignUp(
  db: Kysely<AppDatabase>,
  narrator: Narrator,
  signup: SignUp,
): Promise<string | null> {
  const { style } = narrator;
  try {
    return await db.transaction().execute((trx) =>
      withOutbox(trx, async () => {
        const { id: jobId } = await onboardOrg.enqueue({
          orgId: signup.orgId,
          ownerEmail: signup.ownerEmail,
        });
        await trx
          .insertInto('demo_orgs')
          .values({
            id: signup.orgId,
            name: signup.name,
            owner_email: signup.ownerEmail,
            onboarding_job_id: jobId,
          })
          .execute();
        if (signup.payment === 'declined') throw new PaymentDeclined();
        narrator.say(
          'signup',
          `${style.bold(signup.orgId)}: insert org + onboardOrg.enqueue() in one transaction → ${style.green('COMMIT')}`,
        );
        return jobId;
      }),
    );
  } catch (error) {
    if (!(error instanceof PaymentDeclined)) throw error;
    narrator.say(
      'signup',
      `${style.bold(signup.orgId)}: insert org + onboardOrg.enqueue(), then the card is declined → ${style.red(
        'ROLLBACK',
      )}: no org, no job`,
    );
    return null;
  }
}
