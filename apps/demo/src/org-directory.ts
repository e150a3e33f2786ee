import type { Kysely } from 'kysely';
import type { AppDatabase } from './app-database.js';

/** The demo app's org service, as a job body sees it through `ctx.orgs`. */
export interface OrgDirectory {
  /** Records the workspace provisioned for `orgId`. */
  setWorkspace(orgId: string, workspaceId: string): Promise<void>;
  /** Marks `orgId` onboarded. */
  markOnboarded(orgId: string): Promise<void>;
  /** How many orgs exist and how many finished onboarding. */
  counts(): Promise<{ readonly orgs: number; readonly onboarded: number }>;
}

/** The org service over the app's `demo_orgs` table. */
export function orgDirectory(db: Kysely<AppDatabase>): OrgDirectory {
  return {
    async setWorkspace(orgId, workspaceId) {
      await db.updateTable('demo_orgs').set({ workspace_id: workspaceId }).where('id', '=', orgId).execute();
    },
    async markOnboarded(orgId) {
      await db.updateTable('demo_orgs').set({ onboarded_at: new Date() }).where('id', '=', orgId).execute();
    },
    async counts() {
      const row = await db
        .selectFrom('demo_orgs')
        .select((eb) => [
          eb.fn.countAll<number>().as('orgs'),
          eb.fn.count<number>('onboarded_at').as('onboarded'),
        ])
        .executeTakeFirstOrThrow();
      return { orgs: Number(row.orgs), onboarded: Number(row.onboarded) };
    },
  };
}
