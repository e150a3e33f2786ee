import { readFileSync } from 'node:fs';

/** The version of a package installed for the bench app (its own node_modules), or `'?'`. */
export function installedVersion(name: string): string {
  try {
    const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}
