import type { JobDriver } from '@x/jobs-core';
import type { PageContext } from '../html/page-context.js';
import type { ResolvedOptions } from './dashboard-options.js';

/** What a route handler is given: the request, its path below the base, the options, the page context. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  /** The path below the base, always starting with `/`. */
  readonly path: string;
  readonly options: ResolvedOptions;
  readonly driver: JobDriver;
  readonly page: PageContext;
  /** True when the client wants JSON. */
  readonly json: boolean;
}

/** The path segments below the base, decoded: `/jobs/a%2Fb/retry` → `['jobs', 'a/b', 'retry']`. */
export function segments(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment));
}
