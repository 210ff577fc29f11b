import { booleanClockwise, booleanPointInPolygon, featureCollection, polygon, union } from '@turf/turf';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { boxesOverlap, boxOf, MIN_AREA, type Rings, signedArea } from './rings.ts';
import { findSelfIntersections } from './self-intersections.ts';

export type ExtentResult =
  | { ok: true; geometry: Polygon | MultiPolygon; repairs: string[] }
  | { ok: false; reason: string }
  | { ok: 'skipped'; reason: string };

class ExtentError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const formatPosition = (p: Position) => `[${p.map((n) => Math.round(n * 1e6) / 1e6).join(', ')}]`;

// ---------------------------------------------------------------------------------------------
// Walking the GeoJSON tree down to polygon coordinates

const NO_AREA = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString']);

function collectPolygons(node: unknown, path: string, into: { rings: unknown; path: string }[]): void {
  if (!isRecord(node)) throw new ExtentError(`${path} is not a GeoJSON object`);
  const { type } = node;
  switch (type) {
    case 'Polygon':
      into.push({ rings: node.coordinates, path: `${path}.coordinates` });
      return;
    case 'MultiPolygon': {
      if (!Array.isArray(node.coordinates)) throw new ExtentError(`${path}.coordinates is not an array`);
      node.coordinates.forEach((rings, i) => {
        into.push({ rings, path: `${path}.coordinates[${i}]` });
      });
      return;
    }
    case 'Feature':
      if (node.geometry === null || node.geometry === undefined)
        throw new ExtentError(`${path} has no geometry`);
      collectPolygons(node.geometry, `${path}.geometry`, into);
      return;
    case 'FeatureCollection':
      if (!Array.isArray(node.features)) throw new ExtentError(`${path}.features is not an array`);
      node.features.forEach((feature, i) => {
        collectPolygons(feature, `${path}.features[${i}]`, into);
      });
      return;
    case 'GeometryCollection':
      if (!Array.isArray(node.geometries)) throw new ExtentError(`${path}.geometries is not an array`);
      node.geometries.forEach((geometry, i) => {
        collectPolygons(geometry, `${path}.geometries[${i}]`, into);
      });
      return;
    default:
      if (typeof type === 'string' && NO_AREA.has(type)) {
        throw new ExtentError(
          `${path} is a ${type}, which has no area; a service area must be a Polygon or MultiPolygon`,
        );
      }
      throw new ExtentError(`${path} has unknown GeoJSON type ${JSON.stringify(type) ?? 'undefined'}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Checking and repairing one polygon

type Tally = { closed: number; duplicates: number; reoriented: number; flattened: number };

function readPosition(value: unknown, path: string, tally: Tally): Position {
  if (!Array.isArray(value) || value.length < 2)
    throw new ExtentError(`${path} is not a [longitude, latitude] position`);
  const [lon, lat] = value;
  if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat)) {
    throw new ExtentError(`${path} is not a [longitude, latitude] position of numbers`);
  }
  if (Math.abs(lon) > 180 || Math.abs(lat) > 90) {
    const hint =
      Math.abs(lon) > 1000 || Math.abs(lat) > 1000
        ? 'these look like metres (e.g. British National Grid); GeoJSON needs WGS84 degrees'
        : 'longitude must be within ±180, latitude within ±90, longitude first';
    throw new ExtentError(`${path} ${formatPosition([lon, lat])} is out of range (${hint})`);
  }
  // Altitude plays no part in coverage; dropping it keeps every position the same shape.
  if (value.length > 2) tally.flattened += 1;
  return [lon, lat];
}

function readRing(value: unknown, path: string, tally: Tally): Position[] {
  if (!Array.isArray(value)) throw new ExtentError(`${path} is not an array of positions`);
  const ring: Position[] = [];
  value.forEach((raw, i) => {
    const position = readPosition(raw, `${path}[${i}]`, tally);
    const previous = ring[ring.length - 1];
    if (previous && previous[0] === position[0] && previous[1] === position[1]) tally.duplicates += 1;
    else ring.push(position);
  });
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && ring.length > 1 && (first[0] !== last[0] || first[1] !== last[1])) {
    ring.push([first[0]!, first[1]!]);
    tally.closed += 1;
  }
  if (ring.length < 4) {
    throw new ExtentError(`${path} has ${ring.length} positions once closed; a ring needs at least 4`);
  }
  return ring;
}

function readPolygon(value: unknown, path: string, tally: Tally): Rings {
  if (!Array.isArray(value) || value.length === 0) throw new ExtentError(`${path} is not an array of rings`);
  const rings = value.map((ring, i) => readRing(ring, `${path}[${i}]`, tally));

  const crossings = findSelfIntersections(rings, 3);
  if (crossings.length > 0) {
    const where = crossings.map(formatPosition).join(', ');
    throw new ExtentError(`${path} intersects itself at ${where}${crossings.length === 3 ? ', ...' : ''}`);
  }
  rings.forEach((ring, i) => {
    if (Math.abs(signedArea(ring)) < MIN_AREA) throw new ExtentError(`${path}[${i}] encloses no area`);
  });

  // RFC 7946: outer rings counter-clockwise, holes clockwise. OpenSearch reads orientation to tell
  // which side of a ring is inside when a shape crosses the antimeridian, so it must be right.
  rings.forEach((ring, i) => {
    const wantClockwise = i > 0;
    if (booleanClockwise(ring) !== wantClockwise) {
      ring.reverse();
      tally.reoriented += 1;
    }
  });

  // With no crossings, a hole is inside its outer ring exactly when one of its points is.
  const outer = polygon([rings[0]!]);
  rings.slice(1).forEach((hole, i) => {
    if (!booleanPointInPolygon(hole[0]!, outer)) {
      throw new ExtentError(`${path}[${i + 1}] is a hole outside its outer ring`);
    }
  });
  return rings;
}

// ---------------------------------------------------------------------------------------------
// Combining polygons

function anyBoxesOverlap(polygons: Rings[]): boolean {
  const boxes = polygons.map(boxOf);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (boxesOverlap(boxes[i]!, boxes[j]!)) return true;
  }
  return false;
}

/**
 * Parts of a MultiPolygon must not overlap (OGC simple features). Only when bounding boxes touch is
 * the polygon union run: most service areas are one polygon or disjoint parts, and union is the
 * one expensive step here.
 */
function combine(polygons: Rings[], repairs: string[]): Polygon | MultiPolygon {
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0]! };
  if (!anyBoxesOverlap(polygons)) return { type: 'MultiPolygon', coordinates: polygons };

  const merged = union(featureCollection(polygons.map((rings) => polygon(rings))));
  if (!merged) throw new ExtentError('the polygons cancel out to nothing');
  const parts = merged.geometry.type === 'Polygon' ? 1 : merged.geometry.coordinates.length;
  if (parts !== polygons.length) repairs.push(`merged ${polygons.length} overlapping polygons into ${parts}`);
  return merged.geometry;
}

// ---------------------------------------------------------------------------------------------

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function describeRepairs(tally: Tally): string[] {
  const repairs: string[] = [];
  if (tally.closed) repairs.push(`closed ${plural(tally.closed, 'open ring')}`);
  if (tally.duplicates) repairs.push(`removed ${plural(tally.duplicates, 'repeated position')}`);
  if (tally.reoriented) {
    repairs.push(`reversed ${plural(tally.reoriented, 'ring')} to counter-clockwise outer, clockwise holes`);
  }
  if (tally.flattened) repairs.push(`dropped altitude from ${plural(tally.flattened, 'position')}`);
  return repairs;
}

function looksLikeGeoJson(extent: string | object): boolean {
  return typeof extent === 'object' || /^\s*\{/.test(extent);
}

/**
 * Reads a service area's `extent` as GeoJSON, repairs what can be repaired without guessing
 * (unclosed rings, ring orientation, repeated positions, overlapping parts) and rejects what cannot
 * (bad JSON, non-areal or unknown types, out-of-range coordinates, short rings, self-intersections).
 * Other extent types (topojson, kml, text) are skipped: kept in the record, not used for coverage.
 */
export function parseExtent(extent: string | object, extentType: string | null | undefined): ExtentResult {
  const type = extentType?.trim().toLowerCase() ?? '';
  const repairs: string[] = [];
  if (type === '') {
    if (!looksLikeGeoJson(extent))
      return { ok: 'skipped', reason: 'extent_type is missing and extent is not GeoJSON' };
    repairs.push('extent_type missing; read the extent as GeoJSON');
  } else if (type !== 'geojson') {
    return {
      ok: 'skipped',
      reason: `extent_type "${extentType}" is kept but not used for coverage (only geojson is)`,
    };
  }

  let document: unknown = extent;
  if (typeof extent === 'string') {
    if (extent.trim() === '') return { ok: false, reason: 'extent is empty' };
    try {
      document = JSON.parse(extent);
    } catch (error) {
      return { ok: false, reason: `extent is not valid JSON: ${(error as Error).message}` };
    }
  }

  try {
    const found: { rings: unknown; path: string }[] = [];
    collectPolygons(document, 'extent', found);
    if (found.length === 0) throw new ExtentError('extent contains no polygons');
    const tally: Tally = { closed: 0, duplicates: 0, reoriented: 0, flattened: 0 };
    const polygons = found.map(({ rings, path }) => readPolygon(rings, path, tally));
    repairs.push(...describeRepairs(tally));
    const geometry = combine(polygons, repairs);
    return { ok: true, geometry, repairs };
  } catch (error) {
    if (error instanceof ExtentError) return { ok: false, reason: error.message };
    throw error;
  }
}
