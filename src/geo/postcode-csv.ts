import proj4 from 'proj4';
import { parsePostalCode } from './postal-code.ts';

/**
 * Where the fields are in a postcode CSV. ONSPD and NSPL share column names (pcds / pcd, lat, long,
 * doterm) and always have a header. Code-Point Open data files have no header and fixed columns
 * (Postcode, Positional_quality_indicator, Eastings, Northings, ...) in British National Grid.
 */
export type PostcodeCsvLayout =
  | { style: 'onspd'; hasHeader: true; postcode: number; lat: number; lon: number; doterm: number | null }
  | {
      style: 'code-point-open';
      hasHeader: boolean;
      postcode: number;
      quality: number | null;
      eastings: number;
      northings: number;
    };

export type PostcodeRow = { postcode: string; outcode: string; lat: number; lon: number };
export type PostcodeSkipReason = 'terminated' | 'no-coordinates' | 'invalid-postcode';
export type PostcodeRowSkip = { skip: PostcodeSkipReason };
export type PostcodeRowOptions = { includeTerminated?: boolean };

export type OutcodeCentroid = { outcode: string; lat: number; lon: number; postcodes: number };

export type PostcodeImportCounts = {
  rows: number;
  imported: number;
  skipped: Record<PostcodeSkipReason, number>;
};

export class PostcodeCsvFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostcodeCsvFormatError';
  }
}

// ---------------------------------------------------------------------------------------------
// Layout

const POSTCODE_COLUMNS = ['pcds', 'pcd', 'pcd2', 'pcd7', 'pcd8', 'postcode'];
const LAT_COLUMNS = ['lat', 'latitude'];
const LON_COLUMNS = ['long', 'lon', 'lng', 'longitude'];
// Code-Point Open's column order, as published in its Doc/Code-Point_Open_Column_Headers.csv.
const CODE_POINT = { postcode: 0, quality: 1, eastings: 2, northings: 3 };

function findColumn(header: readonly string[], names: readonly string[]): number {
  for (const name of names) {
    const index = header.indexOf(name);
    if (index >= 0) return index;
  }
  return -1;
}

const isNumeric = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' && Number.isFinite(Number(value));

/** Decides the layout from the first row of the file. */
export function detectPostcodeCsvLayout(
  firstRow: readonly string[],
): { ok: true; layout: PostcodeCsvLayout } | { ok: false; reason: string } {
  const header = firstRow.map((cell) =>
    cell
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase(),
  );

  const first = parsePostalCode(firstRow[0] ?? '');
  if (first.ok && first.value.kind === 'uk-postcode' && isNumeric(firstRow[2]) && isNumeric(firstRow[3])) {
    return { ok: true, layout: { style: 'code-point-open', hasHeader: false, ...CODE_POINT } };
  }

  const postcode = findColumn(header, POSTCODE_COLUMNS);
  const eastings = header.indexOf('eastings');
  const northings = header.indexOf('northings');
  if (postcode >= 0 && eastings >= 0 && northings >= 0) {
    const quality = header.indexOf('positional_quality_indicator');
    return {
      ok: true,
      layout: {
        style: 'code-point-open',
        hasHeader: true,
        postcode,
        eastings,
        northings,
        quality: quality >= 0 ? quality : null,
      },
    };
  }

  const lat = findColumn(header, LAT_COLUMNS);
  const lon = findColumn(header, LON_COLUMNS);
  if (postcode >= 0 && lat >= 0 && lon >= 0) {
    const doterm = header.indexOf('doterm');
    return {
      ok: true,
      layout: { style: 'onspd', hasHeader: true, postcode, lat, lon, doterm: doterm >= 0 ? doterm : null },
    };
  }

  const missing = [
    postcode < 0 && 'a postcode column (pcds or pcd)',
    lat < 0 && 'lat',
    lon < 0 && 'long',
  ].filter(Boolean);
  return {
    ok: false,
    reason:
      `not an ONSPD/NSPL file (missing ${missing.join(', ')}) nor a Code-Point Open file ` +
      '(postcode, quality, eastings, northings); first row: ' +
      JSON.stringify(firstRow.slice(0, 6)),
  };
}

// ---------------------------------------------------------------------------------------------
// Rows

// EPSG:27700 (OSGB36 / British National Grid) with the OSGB36 -> WGS84 Helmert transformation,
// good to a few metres: ample for postcode centroids (ONSPD's own lat/long agree to the metre).
const BRITISH_NATIONAL_GRID =
  '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy ' +
  '+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs';

let gridToWgs84: proj4.Converter | undefined;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** British National Grid eastings/northings (metres) to WGS84, rounded to 6 decimals (~0.1 m). */
export function convertBritishNationalGrid(
  eastings: number,
  northings: number,
): { lat: number; lon: number } {
  gridToWgs84 ??= proj4(BRITISH_NATIONAL_GRID, 'WGS84');
  const [lon, lat] = gridToWgs84.forward([eastings, northings]);
  return { lat: round6(lat!), lon: round6(lon!) };
}

// ONSPD's "no grid reference" marker.
const ONSPD_NO_LAT = 99.999999;
// Code-Point Open: 90 means "no coordinates available".
const CODE_POINT_NO_COORDINATES = 90;

function readOnspdCoordinates(
  layout: Extract<PostcodeCsvLayout, { style: 'onspd' }>,
  row: readonly string[],
) {
  const latText = row[layout.lat]?.trim() ?? '';
  const lonText = row[layout.lon]?.trim() ?? '';
  if (latText === '' || lonText === '') return null;
  const lat = Number(latText);
  const lon = Number(lonText);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat === ONSPD_NO_LAT) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon };
}

function readGridCoordinates(
  layout: Extract<PostcodeCsvLayout, { style: 'code-point-open' }>,
  row: readonly string[],
) {
  if (layout.quality !== null && Number(row[layout.quality]) === CODE_POINT_NO_COORDINATES) return null;
  const eastings = Number(row[layout.eastings]?.trim() || Number.NaN);
  const northings = Number(row[layout.northings]?.trim() || Number.NaN);
  if (!Number.isFinite(eastings) || !Number.isFinite(northings)) return null;
  if (eastings <= 0 && northings <= 0) return null;
  return convertBritishNationalGrid(eastings, northings);
}

/**
 * One data row to a postcode centroid, or why it was skipped. Terminated postcodes (ONSPD `doterm`
 * set) are skipped unless asked for: they no longer receive mail, but old records may still use
 * them. Code-Point Open lists live postcodes only.
 */
export function parsePostcodeRow(
  layout: PostcodeCsvLayout,
  row: readonly string[],
  options: PostcodeRowOptions = {},
): PostcodeRow | PostcodeRowSkip {
  const parsed = parsePostalCode(row[layout.postcode] ?? '');
  if (!parsed.ok || parsed.value.kind !== 'uk-postcode') return { skip: 'invalid-postcode' };
  const { normalised: postcode, outcode } = parsed.value;

  if (layout.style === 'onspd') {
    if (!options.includeTerminated && layout.doterm !== null && (row[layout.doterm]?.trim() ?? '') !== '') {
      return { skip: 'terminated' };
    }
    const at = readOnspdCoordinates(layout, row);
    return at ? { postcode, outcode: outcode!, ...at } : { skip: 'no-coordinates' };
  }
  const at = readGridCoordinates(layout, row);
  return at ? { postcode, outcode: outcode!, ...at } : { skip: 'no-coordinates' };
}

export function createPostcodeImportCounts(): PostcodeImportCounts {
  return { rows: 0, imported: 0, skipped: { terminated: 0, 'no-coordinates': 0, 'invalid-postcode': 0 } };
}

/**
 * Reads CSV records (arrays of cells, e.g. from csv-parse) into postcode centroids, detecting the
 * layout from the first record and tallying what was imported and skipped into `counts`. Throws
 * PostcodeCsvFormatError when the file is neither style. Streams: memory does not grow with the
 * file, except for the optional outcode accumulator (a few thousand entries for the whole UK).
 */
export async function* parsePostcodeRows(
  records: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
  options: PostcodeRowOptions & { counts?: PostcodeImportCounts; outcodes?: OutcodeCentroidAccumulator } = {},
): AsyncGenerator<PostcodeRow> {
  const counts = options.counts ?? createPostcodeImportCounts();
  let layout: PostcodeCsvLayout | undefined;
  for await (const record of records) {
    if (!layout) {
      const detected = detectPostcodeCsvLayout(record);
      if (!detected.ok) throw new PostcodeCsvFormatError(detected.reason);
      layout = detected.layout;
      if (layout.hasHeader) continue;
    }
    counts.rows += 1;
    const parsed = parsePostcodeRow(layout, record, options);
    if ('skip' in parsed) {
      counts.skipped[parsed.skip] += 1;
      continue;
    }
    counts.imported += 1;
    options.outcodes?.add(parsed);
    yield parsed;
  }
}

// ---------------------------------------------------------------------------------------------
// Outcode centroids

export type OutcodeCentroidAccumulator = {
  add(row: PostcodeRow): void;
  centroids(): OutcodeCentroid[];
};

/**
 * Outcode centroids as the mean of member postcode centroids. A plain mean of degrees is fine at
 * the scale of an outcode (a few km); it is what a fallback "somewhere in AB10" needs.
 */
export function createOutcodeCentroidAccumulator(): OutcodeCentroidAccumulator {
  const sums = new Map<string, { lat: number; lon: number; count: number }>();
  return {
    add(row) {
      const sum = sums.get(row.outcode);
      if (sum) {
        sum.lat += row.lat;
        sum.lon += row.lon;
        sum.count += 1;
      } else {
        sums.set(row.outcode, { lat: row.lat, lon: row.lon, count: 1 });
      }
    },
    centroids() {
      return [...sums]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([outcode, sum]) => ({
          outcode,
          lat: round6(sum.lat / sum.count),
          lon: round6(sum.lon / sum.count),
          postcodes: sum.count,
        }));
    },
  };
}

export async function computeOutcodeCentroids(
  rows: AsyncIterable<PostcodeRow> | Iterable<PostcodeRow>,
): Promise<OutcodeCentroid[]> {
  const accumulator = createOutcodeCentroidAccumulator();
  for await (const row of rows) accumulator.add(row);
  return accumulator.centroids();
}
