/** Durations are formatted by @x/jobs-dashboard, so `x-jobs` and the dashboard print them alike. */
export { formatDuration } from '@x/jobs-dashboard';
