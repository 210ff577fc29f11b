/**
 * Small measures of polygon rings in lon/lat, shared by the extent repair (extent.ts) and the
 * coverage cells (coverage-cells.ts).
 */
import type { Position } from 'geojson';

/** Polygon coordinates: rings of [lon, lat] positions, the first ring outer, the rest holes. */
export type Rings = Position[][];

/** A bounding box: west, south, east, north. */
export type Box = [west: number, south: number, east: number, north: number];

// In square degrees: about a hundredth of a square metre. Below it a ring is a line (or rounding).
export const MIN_AREA = 1e-12;

/** Twice the signed area (shoelace); positive for counter-clockwise in lon/lat. */
export function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return sum;
}

/** The box of a polygon's outer ring. */
export function boxOf(rings: Rings): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of rings[0]!) {
    box[0] = Math.min(box[0], lon!);
    box[1] = Math.min(box[1], lat!);
    box[2] = Math.max(box[2], lon!);
    box[3] = Math.max(box[3], lat!);
  }
  return box;
}

export const boxesOverlap = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
