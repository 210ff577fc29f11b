/**
 * `npm start` on empty indices: a newcomer should see data. Generates the synthetic demo dataset
 * (fixed seed, so every demo is the same) and loads it through the real import and reindex.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countDocuments, countPostcodes } from '../engine/index.ts';
import { countRecords } from '../engine/records.ts';
import {
  IncompleteImportError,
  importAndReindex,
  importPostcodeRows,
  reindexWithProgress,
} from '../ingest/index.ts';
import { generateDataset } from '../synthetic/generate.ts';
import { loadUkPlaces } from '../synthetic/uk-places.ts';
import { writeDataset } from '../synthetic/write-dataset.ts';
import type { Runtime } from './runtime.ts';

export const DEMO_SERVICES = 500;
export const DEMO_SEED = 20_240_601;
// A fixed folder: the demo is one source, so a load that was stopped is finished by the next one.
const demoDir = join(tmpdir(), `hsds-demo-${DEMO_SEED}-${DEMO_SERVICES}`);

/** Loads the demo dataset when the services index is empty or missing. */
export async function loadDemoIfEmpty(runtime: Runtime): Promise<void> {
  await loadDemoPostcodesIfEmpty(runtime);
  const served = await countDocuments(runtime.engine, 'services');
  if (served > 0) {
    console.error(`Demo data not loaded: ${served} services are already served.`);
    return;
  }
  const { engine } = runtime;
  // Records imported earlier but never published: publish them rather than add demo data to them.
  if ((await countRecords(engine, ['service'])) > 0) {
    console.error('The read indices are empty but the records store is not: rebuilding them from it...');
    try {
      await reindexWithProgress(engine, { progress: true });
      return;
    } catch (error) {
      // A demo load that was stopped part-way is simply loaded again; anyone else's import is theirs.
      const demoOnly =
        error instanceof IncompleteImportError && error.unfinished.every((run) => run.source === demoDir);
      if (!demoOnly) throw error;
      console.error('The last demo load did not finish: loading it again...');
    }
  }
  const dir = demoDir;
  await mkdir(dir, { recursive: true });
  try {
    console.error(
      `Empty indices: loading the demo dataset (${DEMO_SERVICES} synthetic services around Aberdeen, seed ${DEMO_SEED})...`,
    );
    await writeDataset(dir, generateDataset({ services: DEMO_SERVICES, seed: DEMO_SEED }));
    const result = await importAndReindex(engine, dir, {
      progress: true,
      reportFile: join(dir, 'report.json'),
    });
    const counts = result.reindex?.counts;
    console.error(
      `Demo data loaded: ${result.import.summary.records} records imported; serving ${counts?.services} services, ` +
        `${counts?.service_at_locations} service-at-locations, ${counts?.organizations} organizations, ` +
        `${counts?.taxonomy_terms} taxonomy terms.`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * With no postcode index, `?postcode=` would depend on reaching postcodes.io. The demo brings the
 * live Aberdeen postcodes its services are placed at (the ONSPD sample, OGL), so postcode search
 * works offline; `npx hsds postcodes import` replaces them with a full directory.
 */
async function loadDemoPostcodesIfEmpty(runtime: Runtime): Promise<void> {
  if ((await countPostcodes(runtime.engine)) > 0) return;
  const places = loadUkPlaces();
  const loaded = await importPostcodeRows(runtime.engine, places);
  console.error(
    `Demo postcodes loaded: ${places.length} Aberdeen postcodes and ${loaded.outcodes} outcodes.`,
  );
}
