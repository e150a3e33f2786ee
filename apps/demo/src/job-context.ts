import type { Kysely } from 'kysely';
import type { AppDatabase } from './app-database.js';
import type { Mailer } from './mailer.js';
import type { Narrator } from './narrator.js';
import type { OrgDirectory } from './org-directory.js';

// The demo's services, handed to every run as `ctx` (core's JobContext, extended once, here).
declare module '@x/jobs-core' {
  interface JobContext {
    readonly orgs: OrgDirectory;
    readonly mail: Mailer;
    readonly narrator: Narrator;
    /** The app's own database, the backfill's source (absent where tests fake the services). */
    readonly db?: Kysely<AppDatabase>;
  }
}
