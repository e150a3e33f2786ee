#!/usr/bin/env node
import process from 'node:process';
import { processIo } from './cli-io.js';
import { runCli } from './run-cli.js';

const code = await runCli(processIo());
// Let buffered output reach a pipe before exiting; a leftover handle must not keep the process up.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
