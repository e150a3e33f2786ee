// Opens a PGlite driver on the data directory given as argv[2] from a separate process and prints
// "opened" or the error code it was refused with.
import { pgliteJobDriver } from '../src/pglite/index.js';

const dataDir = process.argv[2] as string;
try {
  const driver = await pgliteJobDriver({ dataDir });
  await driver.close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`${(error as { code?: string }).code ?? String(error)}\n`);
}
