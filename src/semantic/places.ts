/**
 * The directory's places, kept between searches: read once (one aggregation, src/engine/places.ts)
 * and again only when the served data changed, checked at most every CHECK_MS and in the
 * background, so a search never waits on the engine for them after the first.
 */
import type { Engine } from '../engine/engine.ts';
import { readServedPlaces, servedPlacesVersion } from '../engine/places.ts';
import type { Gazetteer } from './constraints.ts';

const CHECK_MS = 5_000;

export type Places = { current(): Promise<Gazetteer> };

export function createPlaces(engine: Engine): Places {
  let places: Gazetteer = new Set();
  let version: string | undefined;
  let checkedAt = 0;
  let loading: Promise<void> | undefined;
  const load = async () => {
    const next = await servedPlacesVersion(engine);
    if (next === version) return;
    places = new Set(await readServedPlaces(engine));
    version = next;
  };
  const refresh = () => {
    checkedAt = Date.now();
    loading = load()
      .catch((error: unknown) => engine.logger.warn({ err: error }, 'places not read for search'))
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  return {
    async current() {
      if (version === undefined) await (loading ?? refresh());
      else if (Date.now() - checkedAt >= CHECK_MS && !loading) void refresh();
      return places;
    },
  };
}
