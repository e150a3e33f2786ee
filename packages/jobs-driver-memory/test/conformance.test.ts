import { jobDriverConformance } from '@x/jobs-conformance';
import { memoryJobDriver, virtualClock } from '../src/index.js';

jobDriverConformance({
  name: 'memory',
  create: ({ queues }) => {
    const clock = virtualClock();
    return { driver: memoryJobDriver({ clock, queues }), clock };
  },
});
