/**
 * The operator's postcode index (src/engine/postcodes.ts loads and reads it): one document per
 * full postcode and per outcode, keyed by its normalised form, with its centroid.
 */
export type PostcodeEntry = { key: string; kind: 'postcode' | 'outcode'; lat: number; lon: number };

export type PostcodeDocument = {
  key: string;
  kind: PostcodeEntry['kind'];
  point: { lat: number; lon: number };
};

export const postcodeMapping = {
  dynamic: 'strict',
  properties: {
    key: { type: 'keyword' },
    kind: { type: 'keyword' },
    point: { type: 'geo_point' },
  },
} as const;

/** An entry as its document. */
export const toPostcodeDocument = (entry: PostcodeEntry): PostcodeDocument => ({
  key: entry.key,
  kind: entry.kind,
  point: { lat: entry.lat, lon: entry.lon },
});
