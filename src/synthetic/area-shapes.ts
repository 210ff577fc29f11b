import type { SeededRandom } from './seeded-random.ts';

// Service-area shapes built in a local flat approximation around their centre (metres east and
// north converted to degrees at the centre's latitude). At 60 km from the centre the error is well
// under one percent, which changes nothing for synthetic areas, and it keeps generation cheap.
//
// Rings follow RFC 7946: closed, exterior counter-clockwise, holes clockwise. Every ring is
// star-shaped around its own centre (radius a positive function of the angle, angles increasing),
// so it cannot cross itself; holes are placed well inside the smallest exterior radius, and parts
// of a multipolygon are kept apart, so the result is valid and simple by construction.

export type Point = { lat: number; lon: number };
export type Position = [number, number];
export type Ring = Position[];
export type PolygonGeometry = { type: 'Polygon'; coordinates: Ring[] };
export type MultiPolygonGeometry = { type: 'MultiPolygon'; coordinates: Ring[][] };
export type AreaGeometry = PolygonGeometry | MultiPolygonGeometry;

const METRES_PER_DEGREE_LAT = 110_574;
const METRES_PER_DEGREE_LON_AT_EQUATOR = 111_320;

/** Six decimals (about 0.1 m) keeps extents compact without visible loss. */
function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Approximate distance in metres (equirectangular; good at city and region scale). */
export function distanceMetres(a: Point, b: Point): number {
  const meanLat = ((a.lat + b.lat) / 2) * (Math.PI / 180);
  const dx = (b.lon - a.lon) * METRES_PER_DEGREE_LON_AT_EQUATOR * Math.cos(meanLat);
  const dy = (b.lat - a.lat) * METRES_PER_DEGREE_LAT;
  return Math.hypot(dx, dy);
}

const unitCircles = new Map<number, { cos: Float64Array; sin: Float64Array }>();

/** Cosines and sines of n equal steps round the circle, computed once per n. */
function unitCircle(n: number): { cos: Float64Array; sin: Float64Array } {
  let circle = unitCircles.get(n);
  if (!circle) {
    circle = { cos: new Float64Array(n), sin: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      circle.cos[i] = Math.cos((i * 2 * Math.PI) / n);
      circle.sin[i] = Math.sin((i * 2 * Math.PI) / n);
    }
    unitCircles.set(n, circle);
  }
  return circle;
}

function ringFromRadii(centre: Point, radii: readonly number[] | Float64Array, clockwise: boolean): Ring {
  const lonScale = METRES_PER_DEGREE_LON_AT_EQUATOR * Math.cos((centre.lat * Math.PI) / 180);
  const n = radii.length;
  const { cos, sin } = unitCircle(n);
  const ring: Ring = [];
  for (let i = 0; i < n; i++) {
    const k = clockwise ? (n - i) % n : i;
    const r = radii[k] ?? 0;
    ring.push([
      round6(centre.lon + (r * cos[k]!) / lonScale),
      round6(centre.lat + (r * sin[k]!) / METRES_PER_DEGREE_LAT),
    ]);
  }
  const first = ring[0];
  if (first) ring.push([first[0], first[1]]);
  return ring;
}

function formatCoordinate(value: number): string {
  // Integer formatting is several times cheaper than shortest-double formatting, and the values
  // are already rounded to six decimals.
  const micro = Math.round(value * 1e6);
  const sign = micro < 0 ? '-' : '';
  const abs = micro < 0 ? -micro : micro;
  const whole = Math.floor(abs / 1e6);
  let fraction = abs - whole * 1e6;
  if (fraction === 0) return `${sign}${whole}`;
  let digits = 6;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${sign}${whole}.${String(fraction).padStart(digits, '0')}`;
}

function stringifyRing(ring: Ring): string {
  const parts: string[] = [];
  for (const [lon, lat] of ring) parts.push(`[${formatCoordinate(lon)},${formatCoordinate(lat)}]`);
  return `[${parts.join(',')}]`;
}

/** The GeoJSON text of a geometry; the same text JSON.stringify gives, made faster. */
export function stringifyGeometry(geometry: AreaGeometry): string {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const body = polygons.map((rings) => `[${rings.map(stringifyRing).join(',')}]`);
  const coordinates = geometry.type === 'Polygon' ? body[0] : `[${body.join(',')}]`;
  return `{"type":"${geometry.type}","coordinates":${coordinates}}`;
}

/** Vertex count grows slowly with size: a 300 m circle needs fewer points than a 60 km region. */
export function verticesForRadius(radiusMetres: number): number {
  return Math.min(64, 20 + Math.round(Math.sqrt(radiusMetres / 1000) * 6));
}

export function circleRing(centre: Point, radiusMetres: number, clockwise = false): Ring {
  const n = verticesForRadius(radiusMetres);
  return ringFromRadii(centre, new Float64Array(n).fill(radiusMetres), clockwise);
}

/**
 * An irregular, council-like outline: the radius varies smoothly with the angle by a few low
 * harmonics. Returns the ring and its smallest radius (what a hole must stay inside).
 */
export function blobRing(
  random: SeededRandom,
  centre: Point,
  radiusMetres: number,
  roughness = 0.22,
): { ring: Ring; minRadius: number } {
  const n = verticesForRadius(radiusMetres);
  const harmonics = [2, 3, 5, 7].map((k) => ({
    k,
    amplitude: random.real(0, roughness / 4),
    phase: random.real(0, 2 * Math.PI),
  }));
  const radii: number[] = [];
  let minRadius = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const angle = (i * 2 * Math.PI) / n;
    let factor = 1;
    for (const h of harmonics) factor += h.amplitude * Math.sin(h.k * angle + h.phase);
    const r = radiusMetres * factor;
    radii.push(r);
    if (r < minRadius) minRadius = r;
  }
  // A straight edge between two vertices dips inside the vertices' radius; allow for it.
  minRadius *= Math.cos(Math.PI / n);
  return { ring: ringFromRadii(centre, radii, false), minRadius };
}

export type Hole = { centre: Point; radius: number };

/**
 * A polygon with circular holes. Holes that would not sit well inside the exterior, or would touch
 * each other, are shrunk or dropped, so the caller may ask for anything plausible.
 */
export function polygonWithHoles(
  exterior: { ring: Ring; minRadius: number },
  centre: Point,
  holes: readonly Hole[],
): PolygonGeometry {
  const kept: Hole[] = [];
  for (const hole of holes) {
    const offset = distanceMetres(centre, hole.centre);
    let radius = Math.min(hole.radius, exterior.minRadius * 0.9 - offset);
    for (const other of kept)
      radius = Math.min(radius, distanceMetres(other.centre, hole.centre) - other.radius - 200);
    if (radius >= 200) kept.push({ centre: hole.centre, radius });
  }
  return {
    type: 'Polygon',
    coordinates: [exterior.ring, ...kept.map((h) => circleRing(h.centre, h.radius, true))],
  };
}

/**
 * Circles around the given centres that keep at least `gapMetres` apart; a circle that would have
 * to shrink below `minRadius` to do so is left out. Returns the circles kept.
 */
export function separateCircles(
  circles: readonly { centre: Point; radius: number }[],
  minRadius: number,
  gapMetres = 200,
): { centre: Point; radius: number }[] {
  const kept: { centre: Point; radius: number }[] = [];
  for (const circle of circles) {
    let radius = circle.radius;
    for (const other of kept) {
      radius = Math.min(radius, distanceMetres(other.centre, circle.centre) - gapMetres - other.radius);
    }
    if (radius >= minRadius) kept.push({ centre: circle.centre, radius });
  }
  return kept;
}
