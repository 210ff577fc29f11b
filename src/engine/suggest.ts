/**
 * GET /suggest: one multi-search for a typed prefix, each part a builder's request
 * (suggest.query.ts): completion over service, organization and taxonomy term names, and a key
 * prefix over the postcode index when the text can start a postcode.
 */
import type { QueryDsl } from '../index-mapping/search.query.ts';
import {
  buildNameSuggestBody,
  buildPlaceSearch,
  SUGGEST_KINDS,
  type SuggestKind,
  toPostcodePrefix,
} from '../index-mapping/suggest.query.ts';
import { type Engine, engineCall } from './engine.ts';
import { postcodeAlias } from './postcodes.ts';

export type NamedSuggestion = { id: string; name: string };
export type PlaceSuggestion = { postcode: string; kind: 'postcode' | 'outcode' };
export type Suggestions = {
  services: string[];
  organizations: NamedSuggestion[];
  taxonomy_terms: NamedSuggestion[];
  places: PlaceSuggestion[];
};

type Option = { _id: string; text: string; _source?: { record?: { name?: string } } };
type Response = {
  error?: unknown;
  suggest?: { names?: { options: Option[] }[] };
  hits?: { hits: { _source?: { key?: string; kind?: string } }[] };
};

const READ = { compression: false } as never;

/** Suggestions for what someone has typed so far, at most `size` of each kind. */
export async function suggest(engine: Engine, typed: string, size: number): Promise<Suggestions> {
  const prefix = typed.trim().replace(/\s+/g, ' ').toLowerCase();
  const postcode = toPostcodePrefix(typed);
  const searches: [Record<string, unknown>, QueryDsl][] = SUGGEST_KINDS.map((kind) => [
    { index: engine.name(kind), ignore_unavailable: true },
    buildNameSuggestBody(prefix, size),
  ]);
  if (postcode)
    searches.push([
      { index: postcodeAlias(engine), ignore_unavailable: true },
      buildPlaceSearch(postcode, size),
    ]);
  const { body } = await engineCall('suggest', () =>
    engine.client.msearch({ body: searches.flat() } as never, READ),
  );
  const responses = (body as { responses: Response[] }).responses;
  const named = (kind: SuggestKind): NamedSuggestion[] => {
    const options = responses[SUGGEST_KINDS.indexOf(kind)]?.suggest?.names?.[0]?.options ?? [];
    return options.map((o) => ({ id: o._id, name: o._source?.record?.name ?? o.text }));
  };
  const places = postcode ? (responses[SUGGEST_KINDS.length]?.hits?.hits ?? []) : [];
  return {
    // Many services share a name ("Food Bank"): a search box offers it once.
    services: [...new Set(named('services').map((s) => s.name))],
    organizations: named('organizations'),
    taxonomy_terms: named('taxonomy_terms'),
    places: places
      .map((hit) => hit._source)
      .filter((s): s is { key: string; kind: 'postcode' | 'outcode' } => typeof s?.key === 'string')
      .map((s) => ({ postcode: s.key, kind: s.kind })),
  };
}
