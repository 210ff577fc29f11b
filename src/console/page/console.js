/** The console at /admin: its pages, in the order an operator meets them. */
import * as imports from './imports.js';
import * as run from './run.js';
import { startShell } from './shell.js';
import * as sources from './sources.js';

startShell([sources, run, imports], 'sources');
