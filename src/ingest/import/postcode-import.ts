/**
 * `hsds postcodes import`: streams an ONSPD / NSPL / Code-Point Open CSV into a fresh postcode
 * index (full postcodes, then outcode centroids computed from them), then swaps the alias. A
 * failure deletes the half-built index and leaves the served one as it was.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import {
  activatePostcodeIndex,
  createPostcodeIndex,
  currentPostcodeIndices,
  deletePostcodeIndex,
  type Engine,
  loadPostcodes,
  type PostcodeEntry,
} from '../../engine/index.ts';
import {
  createOutcodeCentroidAccumulator,
  createPostcodeImportCounts,
  type PostcodeImportCounts,
  type PostcodeRow,
  parsePostcodeRows,
} from '../../geo/postcode-csv.ts';

export type PostcodeImportOptions = {
  includeTerminated?: boolean;
  /** Add to the served index instead of replacing it (e.g. a second file for another country). */
  append?: boolean;
  /** Bytes read so far, for a progress bar. */
  onBytes?: (bytes: number) => void;
};

export type PostcodeImportSummary = PostcodeImportCounts & {
  outcodes: number;
  index: string;
  failed: number;
  seconds: number;
};

export async function importPostcodeCsv(
  engine: Engine,
  path: string,
  options: PostcodeImportOptions = {},
): Promise<PostcodeImportSummary> {
  const counts = createPostcodeImportCounts();
  const file = createReadStream(path);
  file.on('data', () => options.onBytes?.(file.bytesRead));
  const records = file.pipe(
    parse({ relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }),
  );
  const loaded = await importPostcodeRows(
    engine,
    parsePostcodeRows(records, { ...options, counts }),
    options,
  );
  return { ...counts, ...loaded };
}

/**
 * Loads postcode centroids, then the outcode centroids computed from them, into a fresh index and
 * swaps the alias (or adds to the served index with `append`). A failure deletes the half-built
 * index and leaves the served one as it was.
 */
export async function importPostcodeRows(
  engine: Engine,
  rows: AsyncIterable<PostcodeRow> | Iterable<PostcodeRow>,
  options: Pick<PostcodeImportOptions, 'append'> = {},
): Promise<{ outcodes: number; index: string; failed: number; seconds: number }> {
  const started = performance.now();
  const outcodes = createOutcodeCentroidAccumulator();
  const current = await currentPostcodeIndices(engine);
  const appendTo = options.append ? current[0] : undefined;
  const index = appendTo ?? (await createPostcodeIndex(engine));
  try {
    async function* entries(): AsyncGenerator<PostcodeEntry> {
      for await (const row of rows) {
        outcodes.add(row);
        yield { key: row.postcode, kind: 'postcode', lat: row.lat, lon: row.lon };
      }
      for (const outcode of outcodes.centroids()) {
        yield { key: outcode.outcode, kind: 'outcode', lat: outcode.lat, lon: outcode.lon };
      }
    }
    const loaded = await loadPostcodes(engine, index, entries());
    if (loaded.failed > 0) throw new Error(`${loaded.failed} postcodes were refused by the engine`);
    await activatePostcodeIndex(engine, index, { keepOld: Boolean(appendTo) });
    return {
      outcodes: outcodes.centroids().length,
      index,
      failed: loaded.failed,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    if (!appendTo) await deletePostcodeIndex(engine, index);
    throw error;
  }
}
