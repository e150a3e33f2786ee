import { task } from '@x/jobs-scheduler';
import { sendUsageDigest } from './onboarding-jobs.js';

/**
 * Every three seconds, Berlin time (a real app would say `'0 8 * * 1'`): one leader across
 * processes fires each occurrence once, under an occurrence-scoped key.
 */
export const usageDigest = task({
  cron: '*/3 * * * * *',
  tz: 'Europe/Berlin',
  enqueue: () => [[sendUsageDigest, {}]],
});
