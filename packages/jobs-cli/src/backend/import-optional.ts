import { cliError } from '../errors.js';

/** What to say when an optional package is missing. */
export interface OptionalPackage {
  /** `X_CLI_DRIVER_MISSING` for a backend, `X_CLI_PACKAGE_MISSING` for anything else. */
  readonly code: 'X_CLI_DRIVER_MISSING' | 'X_CLI_PACKAGE_MISSING';
  /** Every package the import needs, in install order: `['@x/jobs-driver-pg', '@electric-sql/pglite']`. */
  readonly packages: readonly string[];
  /** What it is for, e.g. `--driver pglite`. */
  readonly purpose: string;
}

/**
 * Runs a dynamic `import()` of an optional peer. A module-not-found for one of `need.packages`
 * (or for anything they import) becomes `need.code` naming the package and the install command;
 * any other failure is rethrown as is.
 */
export async function importOptional<T>(load: () => Promise<T>, need: OptionalPackage): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error);
    if (missing === undefined) throw error;
    const install = need.packages.join(' ');
    throw cliError(
      need.code,
      `${need.purpose} needs the package '${missing}', which is not installed.`,
      { package: missing, packages: need.packages, hint: `Install it: npm install ${install}` },
      error,
    );
  }
}

/** The package a module-not-found error names, or undefined for any other error. */
export function missingPackage(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const message = String((error as { message?: unknown }).message ?? '');
  const match = /Cannot find (?:package|module) '([^']+)'/.exec(message);
  if (match?.[1] === undefined) return undefined;
  const name = match[1];
  // A path (a package present but unbuilt, a broken relative import) is not a missing package.
  if (name.startsWith('.') || name.startsWith('/') || name.startsWith('file:')) return undefined;
  // A bare specifier names a package: keep its scope and name, drop any subpath.
  const segments = name.split('/');
  return name.startsWith('@') ? segments.slice(0, 2).join('/') : (segments[0] ?? name);
}
