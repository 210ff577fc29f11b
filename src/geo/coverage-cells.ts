/**
 * Coverage as the engine can test it fast: grid cells inside it, and its edge (docs/architecture.md, "A search").
 *
 * A `postcode` search keeps the results whose coverage contains the point. Asked of the whole
 * coverage as a `geo_shape`, the engine walks every triangle whose bounds hold the point, and a
 * tessellated circle is a fan of long thin triangles, so in a dense directory (162,112 Aberdeen
 * service_at_locations, most covering the city) that walk was two thirds of a search's time.
 *
 * So each polygon is covered by cells of a quadtree over longitude and latitude (level z splits
 * the world into 2^z by 2^z cells), refined level by level where its boundary runs, within a
 * budget of cells:
 * - cells wholly inside it (none of its edges comes within CELL_MARGIN degrees) are indexed as
 *   keywords; a point lies in one of them exactly when one of its own cells (pointCells: one per
 *   level) is among them;
 * - the rest of it, its part in the cells its boundary crosses, is indexed as a small shape (the
 *   edge) and asked as before, but only small triangles along the boundary are left to walk.
 * Every point of the polygon lies in an inside cell or in the edge, and both lie in the polygon:
 * the answer is the whole shape's answer. Measured on the Aberdeen data: 19 ms a search to 9.
 *
 * The margin (about 10 cm, more than the engine's 1e-7 degree encoding moves a vertex) keeps a
 * point on or by the boundary out of the inside cells, so the edge, encoded as the whole shape
 * was, answers for it. A polygon that spans more than 180 degrees of longitude (which the engine
 * may read as crossing the antimeridian) or has no area is kept whole as its own edge: exact,
 * only not faster.
 */

import { bboxClip, bboxPolygon, featureCollection, intersect, polygon as turfPolygon } from '@turf/turf';
import type { Geometry, Polygon, Position } from 'geojson';
import { type Box, boxesOverlap, boxOf, MIN_AREA, type Rings, signedArea } from './rings.ts';
import { findSelfIntersections } from './self-intersections.ts';

/** The finest level: cells of 360/2^24 by 180/2^24 degrees, about 2 by 1 metres. */
export const MAX_CELL_LEVEL = 24;

/** Cells (inside and boundary) a polygon may be refined into. */
const CELL_BUDGET = 64;

/** Degrees an edge must keep from a cell for the cell to count as inside. */
const CELL_MARGIN = 1e-6;

type Cell = { z: number; x: number; y: number };
type Segment = [x0: number, y0: number, x1: number, y1: number];

const cellKey = (z: number, x: number, y: number) => `${z}/${x}/${y}`;

function cellBox({ z, x, y }: Cell): Box {
  const width = 360 / 2 ** z;
  const height = 180 / 2 ** z;
  return [x * width - 180, y * height - 90, (x + 1) * width - 180, (y + 1) * height - 90];
}

const column = (lon: number, z: number) => Math.min(2 ** z - 1, Math.floor(((lon + 180) / 360) * 2 ** z));
const row = (lat: number, z: number) => Math.min(2 ** z - 1, Math.floor(((lat + 90) / 180) * 2 ** z));

/** The point's cell at every level: what a search asks of the inside cells. */
export function pointCells(point: { lat: number; lon: number }): string[] {
  const cells: string[] = [];
  for (let z = 0; z <= MAX_CELL_LEVEL; z++) cells.push(cellKey(z, column(point.lon, z), row(point.lat, z)));
  return cells;
}

/**
 * One side of a Liang-Barsky clip: the segment's parameter window [enter, leave] narrowed by the
 * side where p * t <= q; false when nothing of it is left.
 */
function narrow(p: number, q: number, window: [number, number]): boolean {
  if (p === 0) return q >= 0;
  const t = q / p;
  if (p < 0) {
    if (t > window[1]) return false;
    if (t > window[0]) window[0] = t;
  } else {
    if (t < window[0]) return false;
    if (t < window[1]) window[1] = t;
  }
  return true;
}

const clipWindow: [number, number] = [0, 1];

/** Whether the segment comes within CELL_MARGIN of the box (Liang-Barsky against the grown box). */
function nearBox([x0, y0, x1, y1]: Segment, box: Box): boolean {
  const west = box[0] - CELL_MARGIN;
  const south = box[1] - CELL_MARGIN;
  const east = box[2] + CELL_MARGIN;
  const north = box[3] + CELL_MARGIN;
  if (Math.max(x0, x1) < west || Math.min(x0, x1) > east) return false;
  if (Math.max(y0, y1) < south || Math.min(y0, y1) > north) return false;
  const dx = x1 - x0;
  const dy = y1 - y0;
  clipWindow[0] = 0;
  clipWindow[1] = 1;
  return (
    narrow(-dx, x0 - west, clipWindow) &&
    narrow(dx, east - x0, clipWindow) &&
    narrow(-dy, y0 - south, clipWindow) &&
    narrow(dy, north - y0, clipWindow)
  );
}

/**
 * Even-odd tests of points against a polygon's rings (holes included). The segments are sorted
 * into horizontal bands first, so a test reads only those of its band: a council boundary has
 * thousands of vertices, and every candidate cell asks once.
 */
function insideTest(segments: Segment[], south: number, north: number): (x: number, y: number) => boolean {
  const count = Math.max(1, Math.min(64, Math.ceil(segments.length / 8)));
  const height = (north - south) / count || 1;
  const bandOf = (y: number) => Math.min(count - 1, Math.max(0, Math.floor((y - south) / height)));
  const bands: Segment[][] = Array.from({ length: count }, () => []);
  for (const segment of segments) {
    const last = bandOf(Math.max(segment[1], segment[3]));
    for (let band = bandOf(Math.min(segment[1], segment[3])); band <= last; band++)
      bands[band]!.push(segment);
  }
  return (x, y) => {
    if (y < south || y > north) return false;
    let inside = false;
    for (const [x0, y0, x1, y1] of bands[bandOf(y)]!) {
      if (y0 > y !== y1 > y && x < ((x1 - x0) * (y - y0)) / (y1 - y0) + x0) inside = !inside;
    }
    return inside;
  };
}

/** A ring worth indexing: closed, three corners or more, more than MIN_AREA of area. */
const isRing = (ring: Position[]): boolean => ring.length >= 4 && Math.abs(signedArea(ring)) / 2 > MIN_AREA;

/** Polygons (as rings) the engine can index, or undefined when any would be refused. */
function indexable(polygons: Rings[]): Rings[] | undefined {
  const kept: Rings[] = [];
  for (const rings of polygons) {
    const [outer, ...holes] = rings;
    if (!outer || !isRing(outer)) continue;
    const clean = [outer, ...holes.filter(isRing)];
    if (findSelfIntersections(clean, 1).length > 0) return undefined;
    kept.push(clean);
  }
  return kept;
}

/**
 * One polygon's part inside the box, as polygons the engine indexes (none when it lies outside).
 * Sutherland-Hodgman is exact and cheap for convex rings, but a concave ring can fold onto the box
 * edge; such a clip is done again as an exact polygon intersection, and when that fails too the
 * polygon is kept whole: whole is exact as well, only not smaller.
 */
export function clipPolygon(rings: Rings, box: Box, convex = false): Rings[] {
  const bounds = boxOf(rings);
  const [west, south, east, north] = bounds;
  if (west >= box[0] && east <= box[2] && south >= box[1] && north <= box[3]) return [rings];
  if (!boxesOverlap(bounds, box)) return [];
  const clipped = bboxClip({ type: 'Polygon', coordinates: rings } as Polygon, box).geometry;
  // A convex ring clipped to a box is convex: nothing can cross. The clip repeats a corner where
  // the ring runs along the box's edge; the engine refuses repeated points, so they go.
  if (convex) {
    const ring = (clipped.coordinates as Rings)[0] ?? [];
    const kept = ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
    return isRing(kept) ? [[kept]] : [];
  }
  const simple = indexable([clipped.coordinates as Rings]);
  if (simple) return simple;
  const exact = intersect(featureCollection([turfPolygon(rings), bboxPolygon(box)]))?.geometry;
  const parts = exact
    ? indexable(exact.type === 'Polygon' ? [exact.coordinates] : exact.coordinates)
    : ([] as Rings[]);
  return parts ?? [rings];
}

/**
 * Whether a polygon is one ring turning one way only (straight runs allowed), and once round:
 * turning one way at every corner can still wind round twice, so the turns must total one turn.
 */
function isConvex(rings: Rings): boolean {
  const ring = rings[0];
  if (rings.length !== 1 || !ring || ring.length < 4) return false;
  let sign = 0;
  let total = 0;
  const n = ring.length - 1;
  for (let i = 0; i < n; i++) {
    const [ax, ay] = ring[i] as [number, number];
    const [bx, by] = ring[(i + 1) % n] as [number, number];
    const [cx, cy] = ring[(i + 2) % n] as [number, number];
    const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    total += Math.atan2(cross, (bx - ax) * (cx - bx) + (by - ay) * (cy - by));
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return sign !== 0 && Math.abs(Math.abs(total) - 2 * Math.PI) < 1e-6;
}

/** The polygons of a geometry, collections walked; lines and points have none. */
export function polygonsOf(geometry: Geometry): Rings[] {
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  if (geometry.type === 'GeometryCollection') return geometry.geometries.flatMap(polygonsOf);
  return [];
}

/** One polygon's inside cells and edge (polygons). */
export type PolygonCells = { cells: string[]; edge: Rings[] };

/** The cells and edge of one polygon (see the module comment). */
export function polygonCells(rings: Rings): PolygonCells {
  const segments: Segment[] = [];
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const [x0, y0] = ring[i - 1] as [number, number];
      const [x1, y1] = ring[i] as [number, number];
      segments.push([x0, y0, x1, y1]);
    }
  }
  const [west, south, east, north] = boxOf(rings);
  const finite = [west, south, east, north].every(Number.isFinite);
  if (!finite || east - west > 180 || !rings[0] || !isRing(rings[0])) return { cells: [], edge: [rings] };

  // The finest level whose cells are still as large as the polygon's box: it spans two by two at most.
  let z = 0;
  while (z < MAX_CELL_LEVEL && 360 / 2 ** (z + 1) >= east - west && 180 / 2 ** (z + 1) >= north - south) z++;
  const inside = insideTest(segments, south, north);
  let frontier: { cell: Cell; segments: Segment[] }[] = [];
  for (let x = column(west, z); x <= column(east, z); x++)
    for (let y = row(south, z); y <= row(north, z); y++) frontier.push({ cell: { z, x, y }, segments });

  const cells: string[] = [];
  let boundary: typeof frontier;
  for (;;) {
    boundary = [];
    for (const { cell, segments: near } of frontier) {
      const box = cellBox(cell);
      const crossing = near.filter((segment) => nearBox(segment, box));
      if (crossing.length > 0) boundary.push({ cell, segments: crossing });
      else if (inside((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
        cells.push(cellKey(cell.z, cell.x, cell.y));
    }
    const level = boundary[0]?.cell.z ?? MAX_CELL_LEVEL;
    if (boundary.length === 0 || level >= MAX_CELL_LEVEL || cells.length + 4 * boundary.length > CELL_BUDGET)
      break;
    frontier = boundary.flatMap(({ cell, segments: near }) =>
      [0, 1].flatMap((dx) =>
        [0, 1].map((dy) => ({
          cell: { z: cell.z + 1, x: 2 * cell.x + dx, y: 2 * cell.y + dy },
          segments: near,
        })),
      ),
    );
  }

  // The edge: the polygon clipped to the boundary cells, neighbours in a row joined into one box,
  // and boxes of the same width stacked in a column joined too (fewer, larger pieces: fewer
  // vertices to index, and still only near the boundary).
  const runs: Box[] = [];
  const ordered = boundary.map(({ cell }) => cell).sort((a, b) => a.y - b.y || a.x - b.x);
  for (const cell of ordered) {
    const box = cellBox(cell);
    const last = runs.at(-1);
    if (last && last[1] === box[1] && last[2] === box[0]) last[2] = box[2];
    else runs.push(box);
  }
  const columns = new Map<string, Box>();
  const boxes: Box[] = [];
  for (const run of runs) {
    const key = `${run[0]} ${run[2]}`;
    const below = columns.get(key);
    if (below && below[3] === run[1]) below[3] = run[3];
    else {
      boxes.push(run);
      columns.set(key, run);
    }
  }
  const convex = isConvex(rings);
  const edge = boxes.flatMap((box) => clipPolygon(rings, box, convex));
  // A clip that had to keep the polygon whole would overlap the other pieces: the whole it is.
  return { cells, edge: edge.includes(rings) ? [rings] : edge };
}

/** What the engine indexes of a coverage: its inside cells, and its edge (absent when it has none). */
export type CoverageCells = { cells: string[]; edge?: Geometry };

// Areas are shared: a service's coverage is every one of its service_at_locations' coverage, and
// the same parsed geometry object is handed out for each. Cached by that object (never changed
// once parsed), so each is covered once per publish.
const covered = new WeakMap<object, PolygonCells[]>();

function membersOf(geometry: Geometry): Geometry[] {
  return geometry.type === 'GeometryCollection' ? geometry.geometries.flatMap(membersOf) : [geometry];
}

/**
 * The cells and edge of a coverage: of each polygon of each member of a collection. A point is
 * covered when it lies in any member, so in any member's inside cell or edge. Members may overlap,
 * so their edges stay apart: one MultiPolygon each, in a collection when there are several.
 */
export function coverageCells(coverage: Geometry): CoverageCells {
  const cells = new Set<string>();
  const edges: Rings[][] = [];
  for (const member of membersOf(coverage)) {
    let parts = covered.get(member);
    if (!parts) {
      parts = polygonsOf(member).map(polygonCells);
      covered.set(member, parts);
    }
    for (const part of parts) for (const cell of part.cells) cells.add(cell);
    const edge = parts.flatMap((part) => part.edge);
    if (edge.length > 0) edges.push(edge);
  }
  const shapes = edges.map(
    (polygons): Geometry =>
      polygons.length === 1
        ? { type: 'Polygon', coordinates: polygons[0] as Rings }
        : { type: 'MultiPolygon', coordinates: polygons },
  );
  const edge: Geometry | undefined =
    shapes.length === 0
      ? undefined
      : shapes.length === 1
        ? shapes[0]
        : { type: 'GeometryCollection', geometries: shapes };
  return { cells: [...cells], ...(edge ? { edge } : {}) };
}
