/**
 * Which words of a search the directory holds as typed: asked of the services index with term
 * vectors of artificial documents (`_mtermvectors`, one document a word, `term_statistics`),
 * which analyse the word as each field does and look its terms up in the field's dictionary. A
 * term the field holds comes back with its `doc_freq`; one it does not, without. Pure: the request
 * body for the words, and the held words read from the answer.
 *
 * A word the directory holds is taken as typed (text.query.ts: no typo expansion for it): "car"
 * in a directory with a car scheme is that, not "care". Held means in a service's name, its
 * organization's name, a taxonomy term's name (unstemmed, as typed) or its description (stemmed:
 * "cloths" is held where "clothes" is, and the stemmed match finds it).
 */
import { F } from './fields.ts';

/** The fields a held word is looked up in, and the source field each is analysed from. */
const LOOKED_UP = [
  { field: F.nameExact, source: F.name },
  { field: F.organizationNameExact, source: F.organizationName },
  { field: F.taxonomyTermNamesExact, source: F.taxonomyTermNames },
  { field: F.description, source: F.description },
] as const;

export function heldWordsBody(words: readonly string[]) {
  return {
    docs: words.map((word) => ({
      doc: Object.fromEntries(LOOKED_UP.map(({ source }) => [source, word])),
      fields: LOOKED_UP.map(({ field }) => field),
      term_statistics: true,
      field_statistics: false,
      positions: false,
      offsets: false,
    })),
  };
}

type TermVectors = {
  docs?: { term_vectors?: Record<string, { terms?: Record<string, { doc_freq?: number }> }> }[];
};

/**
 * The words (by their place in `words`) whose every term some looked-up field holds: a word the
 * analyser splits ("wi-fi") is held only when each of its parts is, in one field.
 */
export function heldWordsOf(words: readonly string[], answer: unknown): Set<string> {
  const held = new Set<string>();
  const docs = (answer as TermVectors).docs ?? [];
  words.forEach((word, i) => {
    const fields = Object.values(docs[i]?.term_vectors ?? {});
    const inField = (f: (typeof fields)[number]) => {
      const terms = Object.values(f.terms ?? {});
      return terms.length > 0 && terms.every((t) => (t.doc_freq ?? 0) > 0);
    };
    if (fields.some(inField)) held.add(word);
  });
  return held;
}
