import { describe, expect, it } from 'vitest';
import { importOptional, missingPackage } from './import-optional.js';

describe('importOptional', () => {
  it('turns a missing package into the coded error naming what to install', async () => {
    const error = await importOptional(
      // A specifier held in a variable so the bundler does not try to resolve it.
      () => import(['@x', 'jobs-driver-absent'].join('/')),
      { code: 'X_CLI_DRIVER_MISSING', packages: ['@x/jobs-driver-absent'], purpose: '--driver absent' },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'X_CLI_DRIVER_MISSING',
      meta: { package: '@x/jobs-driver-absent', hint: 'Install it: npm install @x/jobs-driver-absent' },
    });
  });

  it('rethrows any other failure unchanged', async () => {
    const boom = new Error('boom');
    await expect(
      importOptional(() => Promise.reject(boom), {
        code: 'X_CLI_PACKAGE_MISSING',
        packages: ['x'],
        purpose: 'p',
      }),
    ).rejects.toBe(boom);
  });

  it('reads the package name (not a file path) from module-not-found errors', () => {
    const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(missingPackage(notFound("Cannot find package '@electric-sql/pglite' imported from /x.js"))).toBe(
      '@electric-sql/pglite',
    );
    expect(missingPackage(notFound("Cannot find package 'ioredis/built/x' imported from /x.js"))).toBe(
      'ioredis',
    );
    expect(
      missingPackage(notFound("Cannot find module '/app/dist/index.js' imported from /x.js")),
    ).toBeUndefined();
    expect(missingPackage(new Error('other'))).toBeUndefined();
  });
});
