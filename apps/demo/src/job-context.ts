import type { Mailer } from './mailer.js';
import type { Narrator } from './narrator.js';
import type { OrgDirectory } from './org-directory.js';

// The demo's services, handed to every run as `ctx` (core's JobContext, extended once, here).
declare module '@x/jobs-core' {
  interface JobContext {
    readonly orgs: OrgDirectory;
    readonly mail: Mailer;
    readonly narrator: Narrator;
  }
}
