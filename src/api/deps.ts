import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Engine } from '../engine/index.ts';
import type { GeocoderChain } from '../geo/geocoder.ts';
import type { Dumps } from './dumps.ts';
import type { ReindexJobs } from './jobs.ts';
import type { RecordWrites } from './record-writes.ts';

/** Everything the app needs, passed in once (STYLE.md 2). Tests build it with test values. */
export type AppDeps = {
  config: Config;
  engine: Engine;
  /** Turns `postcode` into a centroid (see geocoding.ts for the production chain). */
  geocoder: GeocoderChain;
  logger: Logger;
  /** Reindex jobs behind POST /admin/reindex (the admin routes exist only with a token of the admin scope). */
  jobs?: ReindexJobs;
  /** The write API's writes (src/ingest/write.ts); without them every write is a 503. */
  writes?: RecordWrites;
  /** Dump slots; by default built from the configuration's DUMP_* limits. */
  dumps?: Dumps;
};
