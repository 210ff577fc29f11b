/** The console at /admin: its pages, in the order an operator meets them. */
import * as duplicates from './duplicates.js';
import * as gaps from './gaps.js';
import * as imports from './imports.js';
import * as records from './records.js';
import * as run from './run.js';
import { startShell } from './shell.js';
import * as sources from './sources.js';
import * as validate from './validate.js';
import * as webhooks from './webhooks.js';

startShell([sources, run, imports, duplicates, gaps, records, validate, webhooks], 'sources');
