/**
 * The directory's places (cities, regions, postal codes of its services' addresses), for reading
 * constraints from a search (src/semantic/constraints.ts): one aggregation over the served
 * services (src/index-mapping/constraints.query.ts), and what tells when they may have changed.
 */
import { placesBody } from '../index-mapping/constraints.query.ts';
import { type Engine, engineCall } from './engine.ts';
import { servedDataSignature } from './record-cache.ts';

/** Every place the served services name; none when no services index is served. */
export async function readServedPlaces(engine: Engine): Promise<string[]> {
  const { body } = await engineCall('places of services', () =>
    engine.client.search({
      index: engine.name('services'),
      ignore_unavailable: true,
      body: placesBody(),
    } as never),
  );
  const buckets =
    (body as { aggregations?: { places?: { buckets?: { key: string }[] } } }).aggregations?.places?.buckets ??
    [];
  return buckets.map((b) => b.key);
}

/** Changes whenever any served read index is written or swapped. */
export const servedPlacesVersion = (engine: Engine): Promise<string> => servedDataSignature(engine);
