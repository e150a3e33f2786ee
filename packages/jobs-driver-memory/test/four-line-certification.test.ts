import { jobDriverConformance } from '@x/jobs-conformance';
import { memoryJobDriver } from '@x/jobs-driver-memory';

jobDriverConformance({ name: 'memory (the four-line file)', create: () => memoryJobDriver() });
