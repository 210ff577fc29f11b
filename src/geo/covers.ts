/**
 * Whether a service area covers a point: turf's point in polygon, boundary included (what the
 * engine's geo_shape `intersects` with a point answers), holes and multipolygons exact.
 */
import { booleanPointInPolygon } from '@turf/turf';
import type { Geometry } from 'geojson';

export type LatLon = { lat: number; lon: number };

/** Polygons, multipolygons and collections of them cover; any other geometry covers nothing. */
export function coversPoint(geometry: Geometry, point: LatLon): boolean {
  switch (geometry.type) {
    case 'Polygon':
    case 'MultiPolygon':
      return booleanPointInPolygon([point.lon, point.lat], geometry);
    case 'GeometryCollection':
      return geometry.geometries.some((part) => coversPoint(part, point));
    default:
      return false;
  }
}
