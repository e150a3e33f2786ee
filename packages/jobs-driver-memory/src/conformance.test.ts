import { jobDriverConformance } from '@x/jobs-conformance';
import { memoryJobDriver, virtualClock } from './index.js';

jobDriverConformance({
  name: 'memory',
  create: (clock = virtualClock()) => ({ driver: memoryJobDriver({ clock }), clock }),
});
