import { jobDriverConformance } from '@x/jobs-conformance';
import { memoryJobDriver, virtualClock } from '../src/index.js';

jobDriverConformance({
  name: 'memory',
  create: (clock = virtualClock()) => ({ driver: memoryJobDriver({ clock }), clock }),
});
