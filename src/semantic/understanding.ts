/**
 * What a search means, beside the words it holds: its text is embedded (embedder.ts) and compared
 * with every shipped need's phrasings (needs.ts) and with every taxonomy term the directory serves
 * (name and description). A need or term above its similarity threshold becomes part of the search
 * (src/index-mapping/meaning.query.ts): the need's phrases are searched as well as the words typed,
 * and services filed under the term are found even when no word of the query is in them. A need
 * also brings the terms its offer (its name and phrases) is close to: whatever a directory calls
 * its terms, a query that means "digital" finds the services filed under "Digital inclusion".
 *
 * Why this design (issue 33, measured on the judged sets): people describe situations ("my partner
 * hits me", "nowhere to sleep tonight"), not service names. Mapping the query onto a few hundred
 * needs and terms costs one embedding (about 1 ms; up to four for a search told in parts) per
 * search however large the directory, needs no engine plug-in and no vector per service, and
 * leaves the ranking of the words typed as it was.
 *
 * A longer search told in parts is understood part by part as well (clausesOf): each part may add
 * the need closest to it, and a term is as close as the closest of the whole text and its parts,
 * where the whole text is not far from them either (CLAUSE_SLACK).
 *
 * Terms are read from the served taxonomy_terms index when first needed and again when the served
 * data changes (checked at most every TERMS_CHECK_MS); their vectors are kept by text, so a re-read
 * embeds only new or changed terms.
 */
import type { Engine } from '../engine/engine.ts';
import { HELD_WORDS_TIMEOUT_MS } from '../engine/held-words.ts';
import { readTermTexts, servedTermsVersion } from '../engine/term-texts.ts';
import type { Meaning } from '../index-mapping/meaning.query.ts';
import { bareWord, MAX_FUZZY_WORD_CHARS, MAX_SEARCH_WORDS, typoWords } from '../index-mapping/text.query.ts';
import { type Embedder, similarity } from './embedder.ts';
import { createHeldWords } from './held-words.ts';
import { rememberedMeanings } from './meaning-memo.ts';
import type { Need } from './needs.ts';
import { correctText, createLexicon, type Lexicon } from './spelling.ts';
import { termBranches } from './term-branches.ts';

export type UnderstandingSettings = {
  /** A need counts when a phrasing is at least this similar to the query. */
  needThreshold: number;
  /** A taxonomy term counts when its text is at least this similar to the query. */
  termThreshold: number;
  /**
   * A crisis need puts crisis services first when it is the closest need to the text (or to one of
   * its parts) and at least this similar, or a little less (CRISIS_SLACK) when no need that is not
   * a crisis comes near (CRISIS_MARGIN).
   */
  crisisThreshold: number;
  /** Terms whose services count as crisis services (ids or names, any case); empty: any service. */
  crisisTerms: readonly string[];
  /** How many recent search texts' vectors are kept (0: every search is embedded). */
  cacheEntries: number;
  /** How long looking up which words the directory holds may take before a search does without it. */
  heldWordsTimeoutMs: number;
};

export const DEFAULT_UNDERSTANDING: UnderstandingSettings = {
  // Set on the development set (bench/relevance), with 12 more queries that should find nothing
  // added to calibrate them: need 0.6 and term 0.45 scored 0.965 there, no false positive; (0.55,
  // 0.35) 0.942 and 4 false positives of 24 ("luxury spa weekend" found night shelters).
  needThreshold: 0.6,
  termThreshold: 0.45,
  crisisThreshold: 0.6,
  crisisTerms: [],
  cacheEntries: 2_000,
  heldWordsTimeoutMs: HELD_WORDS_TIMEOUT_MS,
};

/** At most this many needs and terms join a search (the closest first). */
// One need: a second scored no better on the development set (0.965 with two, 0.966 with one) and
// doubled the phrase queries a search sends.
const MAX_NEEDS = 1;
const MAX_TERMS = 4;
/** A need brings a served term when its offer (its name and words) is at least this close to it. */
// Development set: 0.6 0.910, 0.65 and 0.7 0.909, 0.75 0.907 (0.904 without); the middle of the plateau.
const NEED_TERM_THRESHOLD = 0.65;
const MAX_TERMS_OF_NEED = 2;
/**
 * A crisis need closest to the text counts down to this much below crisisThreshold when the
 * closest need that is not a crisis is at least CRISIS_MARGIN further. Real development sets
 * (Bristol, Miami): a third person's crisis ("my brother is talking about killing himself") is
 * 0.53-0.6 from the closest crisis phrasing and far from any other need; a name such as "Victim
 * Support" is 0.55 from "adult at risk" but 0.52 from "crime", and stays a name.
 */
const CRISIS_SLACK = 0.07;
const CRISIS_MARGIN = 0.1;
/** How much closer than its thresholds a relaxed search's meaning may be (a search that found nothing). */
// 0.1 let 3 to 7 of the development set's 12 queries that should find nothing find something; 0.05 none.
const LOOSER = 0.05;
const TERMS_CHECK_MS = 5_000;

export type Understanding = {
  /**
   * The meaning of a search text: no needs and no terms, even loosely, when it means nothing the
   * directory knows; undefined only for a text with no letter or digit.
   */
  understand(text: string): Promise<Meaning | undefined>;
  close(): Promise<void>;
};

type NeedVectors = { need: Need; vectors: Float32Array[]; offers: Float32Array };
type TermVector = { id: string; name: string; vector: Float32Array };

const best = (query: Float32Array, vectors: readonly Float32Array[]) =>
  vectors.reduce((top, v) => Math.max(top, similarity(query, v)), -1);

/**
 * Each item once by its key, in the order first seen, as close as the closest of its kind: copies,
 * so no list the items came from is changed.
 */
function closestOf<K, T extends { similarity: number }>(items: Iterable<T>, key: (item: T) => K): T[] {
  const kept = new Map<K, T>();
  for (const item of items) {
    const had = kept.get(key(item));
    if (!had || item.similarity > had.similarity) kept.set(key(item), { ...item });
  }
  return [...kept.values()];
}

/** Words a search is understood by: the first MAX_SEARCH_WORDS, each at most MAX_FUZZY_WORD_CHARS long. */
const MAX_UNDERSTOOD_WORDS = MAX_SEARCH_WORDS;

/**
 * The text a search is understood by. What people type is short; a pasted page or a 500-letter
 * word is not worth more to embed (the model's cost grows with tokens: forty random words cost
 * about 10 ms, a few 100-letter words as much), so the words beyond the search's own bounds
 * (text.query.ts) and words no typo tolerance would forgive are left out.
 */
export function boundedText(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => word !== '' && [...word].length <= MAX_FUZZY_WORD_CHARS)
    .slice(0, MAX_UNDERSTOOD_WORDS)
    .join(' ');
}

/**
 * The text as the model reads it: each word without the punctuation around it. A few words sit
 * near the thresholds, and the model reads "food)", "[food]" or "food!" as other texts than
 * "food" (the need for cheap food at 0.66 became none). Clauses are split before (clausesOf).
 */
export const bareWords = (text: string): string =>
  text
    .split(/\s+/)
    .map(bareWord)
    .filter((word) => word !== '')
    .join(' ');

/** A search of at least this many words may describe more than one thing (clauses below). */
const CLAUSE_MIN_WORDS = 6;
/** At most this many clauses are understood on their own, each one more embedding. */
const MAX_CLAUSES = 3;
/** How much further than a threshold the whole text may be from what one of its clauses means. */
// Development set: 0.15 kept "my husband has dementia" (whole 0.54) and dropped "I can't stop crying"
// meaning drinking (whole 0.41).
const CLAUSE_SLACK = 0.15;
/** A clause this short says too little to be understood on its own. */
const CLAUSE_MIN_CLAUSE_WORDS = 3;

/**
 * The clauses of a longer search, each of which is understood on its own as well as the whole.
 * People describe situations in several parts ("my husband has dementia and I'm worn out looking
 * after him"); embedded whole, such a text lies between its needs and close to none of them.
 * Split at punctuation and at the words that join clauses; fewer than two clauses: none.
 */
export function clausesOf(text: string): string[] {
  if (text.split(/\s+/).length < CLAUSE_MIN_WORDS) return [];
  const parts = text
    .split(/[,;:.!?]+|\s+(?:and|but|since|because|while|though|although|cos|cause)\s+/i)
    .map((part) => part.trim())
    .filter((part) => part.split(/\s+/).length >= CLAUSE_MIN_CLAUSE_WORDS);
  return parts.length >= 2 ? parts.slice(0, MAX_CLAUSES) : [];
}

export async function createUnderstanding(options: {
  engine: Engine;
  embedder: Embedder;
  needs: readonly Need[];
  /** Words of the search vocabulary (its rules), which typos are corrected to as well. */
  vocabulary?: readonly string[];
  settings?: Partial<UnderstandingSettings>;
}): Promise<Understanding> {
  const { engine, embedder } = options;
  const settings = { ...DEFAULT_UNDERSTANDING, ...options.settings };
  const needs: NeedVectors[] = [];
  for (const need of options.needs) {
    const vectors: Float32Array[] = [];
    for (const text of [need.name, ...need.phrasings]) vectors.push(await embedder.embed(text));
    // What an entry that meets the need offers, in the need's own words: compared with the terms.
    const offers = await embedder.embed(`${need.name}: ${need.phrases.join(', ')}`);
    needs.push({ need, vectors, offers });
  }

  const needTexts = options.needs.flatMap((n) => [n.name, ...n.phrasings, ...n.phrases]);
  const vocabularyTexts = (options.vocabulary ?? []).map((rule) => rule.replace(/=>|,/g, ' '));
  let lexicon: Lexicon = createLexicon([...needTexts, ...vocabularyTexts], embedder.knownWords);

  const crisisNames = new Set(settings.crisisTerms.map((t) => t.toLowerCase()));
  const isCrisisTerm = (term: { id: string; name: string }) =>
    crisisNames.has(term.id.toLowerCase()) || crisisNames.has(term.name.toLowerCase());

  let vectorsByText = new Map<string, Float32Array>();
  let terms: TermVector[] = [];
  /** The served terms each need's offer is close to (NEED_TERM_THRESHOLD). */
  let termsOfNeed = new Map<Need, { id: string; similarity: number }[]>();
  let crisisTermIds: string[] = [];
  /** The terms below each term (term-branches.ts): a term the text means brings their services. */
  let branches = new Map<string, string[]>();
  const withBranch = (term: { id: string; similarity: number }) => {
    const within = branches.get(term.id);
    return within ? { ...term, within } : term;
  };
  let termsVersion: string | undefined;
  let checkedAt = 0;
  let loading: Promise<void> | undefined;

  const held = createHeldWords(engine, { timeoutMs: settings.heldWordsTimeoutMs });
  const loadTerms = async () => {
    const version = await servedTermsVersion(engine);
    if (version === termsVersion) return;
    held.clear();
    const texts = await readTermTexts(engine);
    const next: TermVector[] = [];
    const kept = new Map<string, Float32Array>();
    for (const term of texts) {
      const text = term.description ? `${term.name}: ${term.description}` : term.name;
      const vector = vectorsByText.get(text) ?? (await embedder.embed(text));
      kept.set(text, vector);
      next.push({ id: term.id, name: term.name, vector });
    }
    vectorsByText = kept;
    terms = next;
    termsOfNeed = new Map(
      needs.map(({ need, offers }) => [
        need,
        next
          .map((term) => ({ id: term.id, similarity: similarity(offers, term.vector) }))
          .filter((t) => t.similarity >= NEED_TERM_THRESHOLD)
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, MAX_TERMS_OF_NEED),
      ]),
    );
    branches = termBranches(texts);
    // An operator's crisis term stands for its branch: a crisis line filed under a child term counts.
    crisisTermIds = [
      ...new Set(next.filter(isCrisisTerm).flatMap((t) => [t.id, ...(branches.get(t.id) ?? [])])),
    ];
    termsVersion = version;
    lexicon = createLexicon(
      [...needTexts, ...vocabularyTexts, ...texts.map((t) => t.name)],
      embedder.knownWords,
    );
  };

  const refreshTerms = () => {
    checkedAt = Date.now();
    loading = loadTerms()
      .catch((error: unknown) => engine.logger.warn({ err: error }, 'taxonomy terms not read for search'))
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
  // Read once before the first search; after that, refreshed in the background, so a search never
  // waits on the engine for them (an engine that hangs costs a search its own timeout, not two).
  await refreshTerms();
  const currentTerms = () => {
    if (Date.now() - checkedAt >= TERMS_CHECK_MS && !loading) void refreshTerms();
    return terms;
  };

  const queries = new Map<string, Float32Array>();
  const embedQuery = async (text: string) => {
    const key = bareWords(text).toLowerCase();
    const cached = queries.get(key);
    if (cached) {
      // Least recently used first out: a search asked all day keeps its vector.
      queries.delete(key);
      queries.set(key, cached);
      return cached;
    }
    const vector = await embedder.embed(key);
    if (settings.cacheEntries <= 0) return vector;
    if (queries.size >= settings.cacheEntries) queries.delete(queries.keys().next().value as string);
    queries.set(key, vector);
    return vector;
  };

  const understanding: Understanding = {
    async understand(asked) {
      const text = boundedText(asked);
      if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
      const known = currentTerms();
      const correction = correctText(text, lexicon);
      // Asked of the engine while the text is embedded: the look-up waits on the network, the
      // embedding on the CPU.
      const heldLookup = held.held([...typoWords(text), ...typoWords(correction ?? '')]);
      const understood = correction ?? text;
      const parts = clausesOf(understood);
      const queryVectors = [await embedQuery(understood)];
      for (const part of parts) queryVectors.push(await embedQuery(part));
      // A clause alone is a few words, and a few words match by their surface ("I can't stop
      // crying" is close to "I can't stop drinking"): what a clause means counts only where the
      // whole text is not far from it either.
      const [whole, ...clauses] = queryVectors.map((q) => needs.map(({ vectors }) => best(q, vectors)));
      const wholeScores = whole!;
      const agrees = (wholeSimilarity: number, threshold: number) =>
        wholeSimilarity >= threshold - CLAUSE_SLACK;
      // A text in several parts may mean one need in each: the closest need of each part joins.
      const clauseNeeds = clauses
        .map((scores) => {
          const top = scores.indexOf(Math.max(...scores));
          return { need: needs[top]!.need, similarity: scores[top]!, whole: wholeScores[top]! };
        })
        .filter((c) => agrees(c.whole, settings.needThreshold));
      const needScores = needs
        .map(({ need }, i) => ({ need, similarity: wholeScores[i]! }))
        .sort((a, b) => b.similarity - a.similarity);
      // A directory may serve thousands of terms: only those close enough for the loose meaning are sorted.
      const termScores = known
        .map((term) => {
          const wholeSimilarity = similarity(queryVectors[0]!, term.vector);
          const closest = agrees(wholeSimilarity, settings.termThreshold)
            ? queryVectors
                .slice(1)
                .reduce((top, q) => Math.max(top, similarity(q, term.vector)), wholeSimilarity)
            : wholeSimilarity;
          return { term, similarity: closest };
        })
        .filter((t) => t.similarity >= settings.termThreshold - LOOSER)
        .sort((a, b) => b.similarity - a.similarity);
      const meaningAt = (needAt: number, termAt: number): Meaning => {
        const meant = closestOf(
          [
            ...needScores.filter((n) => n.similarity >= needAt).slice(0, MAX_NEEDS),
            ...clauseNeeds.filter((n) => n.similarity >= needAt),
          ],
          (n) => n.need,
        );
        return {
          needs: meant.map((n) => ({ name: n.need.name, phrases: n.need.phrases, similarity: n.similarity })),
          // A need the text means brings the terms its offer is close to, as close as the need is.
          terms: closestOf(
            [
              ...termScores
                .filter((t) => t.similarity >= termAt)
                .slice(0, MAX_TERMS)
                .map((t) => ({ id: t.term.id, similarity: t.similarity })),
              ...meant.flatMap((n) =>
                (termsOfNeed.get(n.need) ?? []).map((t) => ({ id: t.id, similarity: n.similarity })),
              ),
            ],
            (t) => t.id,
          ).map(withBranch),
        };
      };
      const meaning = meaningAt(settings.needThreshold, settings.termThreshold);
      const loose = meaningAt(settings.needThreshold - LOOSER, settings.termThreshold - LOOSER);
      const heldWords = [...(await heldLookup)];
      // Only the closest need of the text or of a part may be a crisis: "mental health support"
      // is close to "mental health crisis" by its words, and closer to "mental health".
      const closest = needScores[0];
      const otherwise = needScores.find((n) => !n.need.crisis)?.similarity ?? -1;
      const clearCrisis =
        closest?.need.crisis &&
        closest.similarity >= settings.crisisThreshold - CRISIS_SLACK &&
        closest.similarity - otherwise >= CRISIS_MARGIN;
      const crisisNeed = [...(closest ? [closest] : []), ...clauseNeeds].find(
        (n) => n.need.crisis && (n.similarity >= settings.crisisThreshold || (n === closest && clearCrisis)),
      );
      const empty = (m: Meaning) => m.needs.length === 0 && m.terms.length === 0;
      // Understood as nothing the directory offers, not even loosely: said, so the search asks
      // every word of a short text to match (service-search.query.ts, meansNothing). Never a
      // crisis: a risk told in words far from every need's ("thinking of jumping off a bridge",
      // 0.54 from the closest suicide phrasing) is below the loose need threshold, and asking every
      // word of it to match found nothing.
      if (empty(loose) && !correction && !crisisNeed)
        return { needs: [], terms: [], loose, ...(heldWords.length > 0 ? { heldWords } : {}) };
      if (correction) meaning.correction = correction;
      if (heldWords.length > 0) meaning.heldWords = heldWords;
      if (crisisNeed) {
        // A crisis below needThreshold is still what the text means: its phrases rank the crisis
        // services among themselves, as a need's do ("locked out of home with nowhere to go"
        // put a domestic abuse line, which offers emergency accommodation too, above the shelter).
        if (!meaning.needs.some((n) => n.name === crisisNeed.need.name)) {
          meaning.needs.push({
            name: crisisNeed.need.name,
            phrases: crisisNeed.need.phrases,
            similarity: crisisNeed.similarity,
          });
        }
        meaning.crisis = {
          need: crisisNeed.need.name,
          phrases: crisisNeed.need.phrases,
          onlyTermIds: crisisTermIds,
          restricted: settings.crisisTerms.length > 0,
        };
      }
      return { ...meaning, loose };
    },
    close: () => embedder.close(),
  };
  // Asked again, a text's meaning is remembered (meaning-memo.ts), keyed by the text as understood.
  const remembered = rememberedMeanings((text) => understanding.understand(text), {
    entries: settings.cacheEntries,
    version: () => termsVersion,
  });
  return { understand: (asked) => remembered(boundedText(asked)), close: understanding.close };
}
