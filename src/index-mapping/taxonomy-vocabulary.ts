/**
 * A licensee's own taxonomy synonyms, loaded with their taxonomy. Pure.
 *
 * Taxonomies publish the other names a term goes by: a thesaurus's non-preferred ("use for")
 * terms, the AIRS/211 LA taxonomy's use references, SKOS `altLabel`. HSDS 3.1's taxonomy_term has
 * no field for them, so a feed gives them in the extension field `x-alternate_names` of a term: a
 * list of names in JSON, or one text with the names separated by `;` or `|` (a CSV cell of
 * taxonomy_terms.csv; JSON accepts that too). Each term's alternate names become one rule of the
 * search vocabulary for its name, one way (`food shelf, food cupboard => food shelf, food cupboard,
 * Food Pantries`): typing an alternate finds the services filed under the term (and text using its
 * name), while a search for the term's own name is unchanged (and costs nothing more). The rules
 * join the shipped vocabulary and the operator's SYNONYMS_FILE in the search analyzer, so they
 * change with an analyzer reload, not a reindex (src/engine/vocabulary.ts).
 *
 * What feeds put there is cleaned, here, the same way at import (reported as repairs) and when the
 * rules are made (whatever a strict import stored as published): HTML out and references decoded,
 * the rule syntax's own characters (`,` `=>` `\` `#` `;` `|`) read as spaces, blanks and
 * duplicates (of each other or of the term's name, in any case) dropped, a name longer than
 * MAX_ALTERNATE_NAME_LENGTH dropped (a sentence is not a name), at most MAX_ALTERNATE_NAMES_PER_TERM
 * a term, and at most MAX_TAXONOMY_ALTERNATES in all (the rules live in every read index's
 * settings, in the cluster state).
 */
import { toSearchText } from './search-text.ts';

export const ALTERNATE_NAMES_FIELD = 'x-alternate_names';
export const MAX_ALTERNATE_NAME_LENGTH = 100;
export const MAX_ALTERNATE_NAMES_PER_TERM = 50;
export const MAX_TAXONOMY_ALTERNATES = 20_000;

// The Solr synonym format's own syntax, and control characters: read as spaces.
const SYNTAX = /=>|[,;|\\#\p{Cc}]/gu;
const SPACES = /\s+/g;
const WORDY = /[\p{L}\p{N}]/u;
const SEPARATORS = /[;|\r\n]/;

/** A name as a rule can hold it, or '' when nothing of it is left. */
export function cleanName(value: string): string {
  return toSearchText(value).replace(SYNTAX, ' ').replace(SPACES, ' ').trim();
}

export type AlternateNames = {
  names: string[];
  /** What was dropped or changed, for the import report; empty when the value was clean. */
  problems: string[];
  /** Whether anything but dropping duplicates was lost (a name too long, not text, over the cap). */
  lost: boolean;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The clean alternate names of a term from what a feed gave (see above). */
export function cleanAlternateNames(value: unknown, termName?: string): AlternateNames {
  const problems: string[] = [];
  let raw: unknown[];
  if (value === undefined || value === null) raw = [];
  else if (Array.isArray(value)) raw = value;
  else if (typeof value === 'string') {
    raw = value.split(SEPARATORS);
    if (raw.length > 1) problems.push(`one text read as ${plural(raw.length, 'name')} (split at ; or |)`);
  } else if (typeof value === 'number' || typeof value === 'boolean') raw = [value];
  else {
    return { names: [], problems: ['not a list of names: dropped'], lost: true };
  }
  const seen = new Set<string>();
  if (termName) seen.add(cleanName(termName).toLowerCase());
  const names: string[] = [];
  let notText = 0;
  let blank = 0;
  let tooLong = 0;
  let duplicate = 0;
  let changed = 0;
  let overCap = 0;
  for (const item of raw) {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
      notText++;
      continue;
    }
    const text = String(item);
    const name = cleanName(text);
    if (name === '' || !WORDY.test(name)) {
      blank++;
      continue;
    }
    if (name.length > MAX_ALTERNATE_NAME_LENGTH) {
      tooLong++;
      continue;
    }
    const key = name.toLowerCase();
    if (seen.has(key)) {
      duplicate++;
      continue;
    }
    if (names.length >= MAX_ALTERNATE_NAMES_PER_TERM) {
      overCap++;
      continue;
    }
    seen.add(key);
    if (name !== text) changed++;
    names.push(name);
  }
  if (notText > 0) problems.push(`${plural(notText, 'value')} not text: dropped`);
  if (blank > 0) problems.push(`${plural(blank, 'blank name')} dropped`);
  if (tooLong > 0)
    problems.push(`${plural(tooLong, 'name')} over ${MAX_ALTERNATE_NAME_LENGTH} characters dropped`);
  if (duplicate > 0) problems.push(`${plural(duplicate, 'duplicate')} (or the term's own name) dropped`);
  if (overCap > 0)
    problems.push(`${plural(overCap, 'name')} beyond the first ${MAX_ALTERNATE_NAMES_PER_TERM} dropped`);
  if (changed > 0) problems.push(`${plural(changed, 'name')} cleaned (HTML, rule syntax or spaces)`);
  return { names, problems, lost: notText + tooLong + overCap > 0 };
}

export type TaxonomyTermNames = { name: unknown; alternates: unknown };

/**
 * The vocabulary rules of a taxonomy's terms (see above), in the order given, and how many
 * alternate names were left out by MAX_TAXONOMY_ALTERNATES.
 */
export function taxonomySynonymRules(
  terms: Iterable<TaxonomyTermNames>,
  limit = MAX_TAXONOMY_ALTERNATES,
): { rules: string[]; leftOut: number } {
  const rules: string[] = [];
  let total = 0;
  let leftOut = 0;
  for (const term of terms) {
    if (typeof term.name !== 'string') continue;
    const name = cleanName(term.name);
    if (name === '' || !WORDY.test(name)) continue;
    let { names } = cleanAlternateNames(term.alternates, name);
    if (names.length === 0) continue;
    if (total + names.length > limit) {
      leftOut += names.length - Math.max(0, limit - total);
      names = names.slice(0, Math.max(0, limit - total));
      if (names.length === 0) continue;
    }
    total += names.length;
    const alternates = names.join(', ');
    rules.push(`${alternates} => ${alternates}, ${name}`);
  }
  return { rules, leftOut };
}
