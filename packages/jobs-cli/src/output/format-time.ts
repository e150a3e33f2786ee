/** Instants are formatted by @x/jobs-dashboard, so `x-jobs` and the dashboard print them alike. */
export { formatInZone, formatRelative, formatWhen } from '@x/jobs-dashboard';
