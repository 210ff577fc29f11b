/**
 * GET /suggest: what a search box offers while someone types. Pure: completion inputs for the
 * documents, and the requests for a typed prefix (service names, organization names, taxonomy
 * terms from completion fields; places from the postcode index by key prefix).
 */
import type { SuggestField } from './documents.ts';
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';
import { toSearchText } from './search-text.ts';

/** Longest input kept; the completion field ignores what is beyond its max_input_length anyway. */
const MAX_WORDS = 8;

/**
 * A name and the name from each of its later words on, so "foodbank" offers "Torry Foodbank":
 * completion matches from the start of an input only.
 */
export function toSuggestField(name: string | undefined): SuggestField | undefined {
  if (!name) return undefined;
  const words = toSearchText(name).split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  if (words.length === 0) return undefined;
  // From each word that starts with a letter or digit: "& Drink" or "- Help" start nothing typed.
  const input = words.flatMap((word, i) => (/^[\p{L}\p{N}]/u.test(word) ? [words.slice(i).join(' ')] : []));
  return input.length > 0 ? { input } : undefined;
}

export const SUGGEST_KINDS = ['services', 'organizations', 'taxonomy_terms'] as const;
export type SuggestKind = (typeof SUGGEST_KINDS)[number];

/** The completion suggester for a typed prefix; a longer prefix forgives one typo. */
export function buildCompletionSuggest(prefix: string, size: number): QueryDsl {
  return {
    names: {
      prefix,
      completion: {
        field: F.suggest,
        size,
        skip_duplicates: true,
        ...(prefix.length >= 4 ? { fuzzy: { fuzziness: 1, prefix_length: 1 } } : {}),
      },
    },
  };
}

/**
 * The start of a UK postcode as the postcode index keys it ("AB10 1AB", outcodes "AB10"), from
 * what was typed ("ab10", "AB101", "ab10 1a"), or undefined when it cannot start one.
 */
export function toPostcodePrefix(typed: string): string | undefined {
  const compact = typed.toUpperCase().replace(/\s+/g, '');
  if (!/^[A-Z]{1,2}(\d[A-Z\d]?)?(\d[A-Z]{0,2})?$/.test(compact)) return undefined;
  // Inward codes are a digit and two letters: with one typed, the outward code is known.
  const inward = /^(.+?)(\d[A-Z]{0,2})$/.exec(compact);
  if (inward && compact.length >= 5) return `${inward[1]} ${inward[2]}`;
  return compact;
}

/** The completions of a prefix in one read index, with each record's name: no hits, only suggestions. */
export function buildNameSuggestBody(prefix: string, size: number): QueryDsl {
  return { size: 0, _source: [`${F.record}.name`], suggest: buildCompletionSuggest(prefix, size) };
}

/** Outcodes first, then full postcodes, each in order. */
export function buildPlaceSearch(prefix: string, size: number): QueryDsl {
  return {
    size,
    track_total_hits: false,
    _source: ['key', 'kind'],
    query: { prefix: { key: { value: prefix } } },
    sort: [{ kind: { order: 'asc' } }, { key: { order: 'asc' } }],
  };
}
