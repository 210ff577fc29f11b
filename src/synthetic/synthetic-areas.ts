import {
  type AreaGeometry,
  blobRing,
  circleRing,
  distanceMetres,
  type Hole,
  type Point,
  polygonWithHoles,
  separateCircles,
} from './area-shapes.ts';
import type { SeededRandom } from './seeded-random.ts';
import type { UkPlace } from './uk-places.ts';
import { isUsPlace, stateOutline, type UsPlace } from './us-places.ts';

/** A service area before it gets an id: name, description and a GeoJSON geometry. */
export type AreaDraft = { name: string; description: string; geometry: AreaGeometry };

type Region = {
  name: string;
  centre: Point;
  radius: [number, number];
  roughness: number;
  description: string;
};

// Council-sized regions around the sample's places. Radii are what a council or health board area
// spans; the outlines are irregular blobs, not the real boundaries.
const SCOTTISH_REGIONS: readonly Region[] = [
  {
    name: 'Aberdeen City',
    centre: { lat: 57.145, lon: -2.16 },
    radius: [9_000, 12_000],
    roughness: 0.15,
    description: 'Residents of Aberdeen City.',
  },
  {
    name: 'Aberdeen City and Shire',
    centre: { lat: 57.22, lon: -2.45 },
    radius: [40_000, 55_000],
    roughness: 0.22,
    description: 'Anyone living in Aberdeen City or Aberdeenshire.',
  },
  {
    name: 'Aberdeenshire',
    centre: { lat: 57.3, lon: -2.6 },
    radius: [45_000, 60_000],
    roughness: 0.22,
    description: 'Residents of Aberdeenshire.',
  },
  {
    name: 'Grampian',
    centre: { lat: 57.35, lon: -2.85 },
    radius: [55_000, 60_000],
    roughness: 0.2,
    description: 'The whole of the Grampian health board area: Aberdeen City, Aberdeenshire and Moray.',
  },
  {
    name: 'Deeside',
    centre: { lat: 57.07, lon: -2.5 },
    radius: [20_000, 30_000],
    roughness: 0.25,
    description: 'Communities along the River Dee, from Peterculter to Braemar.',
  },
];

const ENGLISH_REGIONS: Record<string, Region> = {
  Southwark: {
    name: 'Greater London',
    centre: { lat: 51.5, lon: -0.12 },
    radius: [25_000, 30_000],
    roughness: 0.15,
    description: 'Anyone living in Greater London.',
  },
  Manchester: {
    name: 'Greater Manchester',
    centre: { lat: 53.48, lon: -2.24 },
    radius: [20_000, 28_000],
    roughness: 0.2,
    description: 'Anyone living in the ten Greater Manchester boroughs.',
  },
};

const ABERDEEN_CITY = SCOTTISH_REGIONS[0]!;
const CITY_AND_SHIRE = SCOTTISH_REGIONS[1]!;

function regionsFor(place: UkPlace): readonly Region[] {
  const english = ENGLISH_REGIONS[place.council];
  return english ? [english] : SCOTTISH_REGIONS;
}

function formatKm(metres: number): string {
  return metres < 1000 ? `${Math.round(metres / 100) * 100} m` : `${Math.round(metres / 500) / 2} km`;
}

function joinLabels(labels: readonly string[]): string {
  return labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** Log-uniform, so small local areas are common and a 5 km one is not unusual. */
function drawRadius(random: SeededRandom, min: number, max: number): number {
  return Math.round(min * (max / min) ** random.next());
}

/** A circle of 300 m to 5 km around a place: the common "people living near us" area. */
export function drawRadiusArea(
  random: SeededRandom,
  centre: Point,
  label: string,
  min = 300,
  max = 5_000,
): AreaDraft {
  const radius = drawRadius(random, min, max);
  return {
    name: `Within ${formatKm(radius)} of ${label}`,
    description: `People who live within about ${formatKm(radius)} of ${label}.`,
    geometry: { type: 'Polygon', coordinates: [circleRing(centre, radius)] },
  };
}

/** A council- or health-board-sized area (9 to 60 km across its centre), often over 1,000 km². */
export function drawRegionArea(random: SeededRandom, place: UkPlace): AreaDraft {
  if (isUsPlace(place)) return drawUsRegionArea(random, place);
  const region = random.pick(regionsFor(place));
  const radius = random.real(region.radius[0], region.radius[1]);
  const { ring } = blobRing(random, region.centre, radius, region.roughness);
  return {
    name: region.name,
    description: region.description,
    geometry: { type: 'Polygon', coordinates: [ring] },
  };
}

/**
 * An area with holes: either a region that surrounds a city that has its own service (the
 * Aberdeenshire-around-Aberdeen pattern), or a local area minus one or two neighbourhoods that a
 * partner covers. Holes are centred on real places so that postcodes fall inside them.
 */
export function drawHoledArea(
  random: SeededRandom,
  place: UkPlace,
  label: string,
  places: readonly UkPlace[],
): AreaDraft {
  if (!ENGLISH_REGIONS[place.council] && !isUsPlace(place) && random.chance(0.4)) {
    const exterior = blobRing(random, CITY_AND_SHIRE.centre, random.real(42_000, 55_000), 0.18);
    const geometry = polygonWithHoles(exterior, CITY_AND_SHIRE.centre, [
      { centre: ABERDEEN_CITY.centre, radius: random.real(8_000, 11_000) },
    ]);
    return {
      name: 'Aberdeenshire and the North East, outside Aberdeen City',
      description:
        'Anywhere in the North East except Aberdeen City, where a partner organization runs this service.',
      geometry,
    };
  }
  const radius = random.real(4_000, 15_000);
  const exterior = blobRing(random, place, radius, 0.2);
  const holeCount = random.chance(0.3) ? 2 : 1;
  const holes: Hole[] = [];
  const holeLabels: string[] = [];
  for (let attempt = 0; attempt < 12 && holes.length < holeCount; attempt++) {
    const candidate = random.pick(places);
    const holeRadius = random.real(0.12, 0.25) * radius;
    const offset = distanceMetres(place, candidate);
    const clear = holes.every((h) => distanceMetres(h.centre, candidate) > h.radius + holeRadius + 500);
    if (
      offset > 300 &&
      offset + holeRadius < exterior.minRadius * 0.85 &&
      clear &&
      !holeLabels.includes(candidate.area)
    ) {
      holes.push({ centre: candidate, radius: holeRadius });
      holeLabels.push(candidate.area);
    }
  }
  const geometry = polygonWithHoles(exterior, place, holes);
  const kept = holeLabels.slice(0, geometry.coordinates.length - 1);
  return {
    name: kept.length
      ? `${place.area} and surrounding area, except ${joinLabels(kept)}`
      : `${place.area} and surrounding area`,
    description: kept.length
      ? `Within about ${formatKm(radius)} of ${label}. ${joinLabels(kept)} ${kept.length > 1 ? 'are' : 'is'} covered by a neighbouring service.`
      : `Within about ${formatKm(radius)} of ${label}.`,
    geometry,
  };
}

/**
 * Separate neighbourhoods served by outreach sessions: two or three disjoint circles around the
 * given centres and, if needed, other real places. Undefined when fewer than two parts fit.
 */
export function drawMultiArea(
  random: SeededRandom,
  anchors: readonly { point: Point; label: string }[],
  places: readonly UkPlace[],
): AreaDraft | undefined {
  const wanted = random.chance(0.35) ? 3 : 2;
  const candidates = anchors.slice(0, wanted).map((a) => ({ centre: a.point, label: a.label }));
  for (let i = 0; candidates.length < wanted + 3 && i < 8; i++) {
    const place = random.pick(places);
    if (!candidates.some((c) => c.label === place.area))
      candidates.push({ centre: place, label: place.area });
  }
  const circles = separateCircles(
    candidates.map((c) => ({ centre: c.centre, radius: drawRadius(random, 500, 3_000) })),
    300,
  ).slice(0, wanted);
  if (circles.length < 2) return undefined;
  const labels = circles.map(
    (circle) => candidates.find((c) => c.centre === circle.centre)?.label ?? 'the area',
  );
  return {
    name: joinLabels(labels),
    description: `Outreach in ${joinLabels(labels)} only.`,
    geometry: { type: 'MultiPolygon', coordinates: circles.map((c) => [circleRing(c.centre, c.radius)]) },
  };
}

/**
 * In the US, a county-sized area around the place (15 to 45 km across its centre), or, for one in
 * three, the whole state (the convex hull of its ZIP centroids).
 */
function drawUsRegionArea(random: SeededRandom, place: UsPlace): AreaDraft {
  if (random.chance(1 / 3)) {
    return {
      name: `Statewide: ${place.stateName}`,
      description: `Anyone living in ${place.stateName}.`,
      geometry: { type: 'Polygon', coordinates: [stateOutline(place)] },
    };
  }
  const radius = random.real(15_000, 45_000);
  const { ring } = blobRing(random, place, radius, 0.2);
  return {
    name: place.council,
    description: `Residents of ${place.council}, ${place.stateName}.`,
    geometry: { type: 'Polygon', coordinates: [ring] },
  };
}
