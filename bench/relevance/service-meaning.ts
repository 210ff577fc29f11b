/**
 * What service-level meaning would be worth, pure: `bench:relevance --service-meaning` ranks each
 * judged query four ways and scores each ranking:
 * - `today`: the API's own ranking;
 * - `services by meaning`: every service of the corpus by the cosine of its text (name,
 *   description, taxonomy term names) to the query, the shipped model's embeddings, no threshold;
 * - `better of the two`: per query, whichever of those two scores higher. No rule that picks one
 *   ranking per query can do better than this, so it is a ceiling for such a choice, read with the
 *   judgments (it is not a ranking anything could serve);
 * - `fused`: reciprocal-rank fusion of today's first page and the first `depth` services by
 *   meaning, the form search could serve with a vector per service. A query today's search finds
 *   nothing for stays empty, so fusion adds no false positive;
 * - `fused, sentences`: the same for queries of FUSION.fromWords words or more, today's ranking
 *   for shorter ones (names, abbreviations and typos of one or two words, which meaning ranks
 *   worst). The word count was chosen on the development set (2 to 5 words tried).
 * Nothing here changes search: it says whether a vector per service (an embedding per service at
 * import, k-NN in the engine) would move the sets enough to be worth its cost.
 */
import type { QueryScore } from './metrics.ts';

/** The rankings `--service-meaning` scores, in the order it prints them. */
export const SERVICE_MEANING_RANKINGS = [
  'today',
  'services by meaning',
  'better of the two',
  'fused',
  'fused, sentences',
] as const;
export type ServiceMeaningRanking = (typeof SERVICE_MEANING_RANKINGS)[number];

/**
 * Reciprocal-rank fusion constant, how many services by meaning join today's page, and from how
 * many words a query is fused in `fused, sentences`.
 */
export const FUSION = { k: 10, depth: 10, fromWords: 3 } as const;

/** Whether `fused, sentences` fuses a query: it has FUSION.fromWords words or more. */
export const isSentence = (query: string): boolean => query.trim().split(/\s+/).length >= FUSION.fromWords;

/** Keys of the services, best first, by similarity to the query (ties by key, so runs repeat). */
export function rankByMeaning(similarities: ReadonlyMap<string, number>): string[] {
  return [...similarities].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
}

/**
 * Today's page fused with the first `depth` services by meaning: each candidate scores
 * 1/(k + rank) in each ranking it is in, best first. Empty when today's page is empty.
 */
export function fuseRankings(
  today: readonly string[],
  byMeaning: readonly string[],
  { k, depth }: { k: number; depth: number } = FUSION,
): string[] {
  if (today.length === 0) return [];
  const meaningRank = new Map(byMeaning.map((key, i) => [key, i]));
  const candidates = new Set([...today, ...byMeaning.slice(0, depth)]);
  const score = (key: string) => {
    const lexical = today.indexOf(key);
    const meaning = meaningRank.get(key);
    return (lexical >= 0 ? 1 / (k + lexical) : 0) + (meaning === undefined ? 0 : 1 / (k + meaning));
  };
  return [...candidates]
    .map((key, order) => ({ key, score: score(key), order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ key }) => key);
}

/** Per query, the better-scoring of two rankings' scores (by nDCG@10). */
export function betterOfTwo(a: QueryScore, b: QueryScore): QueryScore {
  return b.ndcg > a.ndcg ? b : a;
}
