/**
 * The forms two sources' copies of one record are compared in: names as word sets (case, accents,
 * punctuation, `&`/`and` and filler words forgotten), UK postcodes by the `postcode` package's
 * normal form (so `ab101ab` and `AB10 1AB` agree), phones as their national digits (`+44 1224
 * 123456`, `01224 123456` and `(01224) 123-456` agree), e-mails in lower case, websites by host.
 * Pure functions, no I/O.
 */
import distance from 'damerau-levenshtein';
import { toNormalised } from 'postcode';

// Words that say nothing about which record this is: leaving them out lets "The Food Bank Ltd"
// and "Food Bank" agree, and keeps them out of the blocking keys (every record would share them).
const FILLER = new Set([
  'a',
  'an',
  'and',
  'at',
  'cic',
  'for',
  'in',
  'inc',
  'limited',
  'ltd',
  'of',
  'on',
  'the',
  'to',
  'uk',
]);

// Spellings and abbreviations publishers differ on, to one form.
const SAME_WORD: Record<string, string> = {
  center: 'centre',
  ctr: 'centre',
  organization: 'organisation',
  org: 'organisation',
  assoc: 'association',
  svc: 'service',
  svcs: 'service',
  dept: 'department',
  st: 'street',
  rd: 'road',
  ave: 'avenue',
};

/** The words of a name or address line, normalised, filler left out, plurals as singulars. */
export function nameWords(text: string | undefined): string[] {
  if (!text) return [];
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, ' ');
  const words: string[] = [];
  for (const raw of plain.split(' ')) {
    if (!raw || FILLER.has(raw)) continue;
    let word = SAME_WORD[raw] ?? raw;
    // "services"/"service", "centres"/"centre": a trailing s is the commonest wording difference.
    if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);
    words.push(SAME_WORD[word] ?? word);
  }
  return words;
}

/** Two words agree when equal or, both of 4 letters or more, one edit apart (a typo or swap). */
function wordsAgree(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 4 || b.length < 4 || Math.abs(a.length - b.length) > 1) return false;
  return distance(a, b).steps <= 1;
}

/**
 * How alike two names are, 0 to 1: the overlap of their word sets (Dice; words that agree up to
 * a typo count as shared), so word order, case and a dropped filler word cost nothing. When each
 * name has a word the other lacks ("Citizens Advice Mastrick", "Citizens Advice Altens"), the
 * names say different things, not the same thing more or less fully: the overlap counts for less.
 */
export function nameSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const sa = [...new Set(joinCompounds(a, b))];
  const sb = [...new Set(joinCompounds(b, a))];
  const matchedB = new Set<number>();
  let shared = 0;
  for (const word of sa) {
    const j = sb.findIndex((other, k) => !matchedB.has(k) && wordsAgree(word, other));
    if (j >= 0) {
      matchedB.add(j);
      shared += 1;
    }
  }
  const dice = (2 * shared) / (sa.length + sb.length);
  const conflicting = shared < sa.length && matchedB.size < sb.length;
  return Math.round(dice * (conflicting ? CONFLICT_FACTOR : 1) * 1000) / 1000;
}

const CONFLICT_FACTOR = 0.6;

/** Two neighbouring words of `words` written as one in `other` ("food bank", "foodbank") as that one word. */
function joinCompounds(words: readonly string[], other: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const joined = `${words[i]}${words[i + 1] ?? ''}`;
    if (i + 1 < words.length && other.includes(joined)) {
      out.push(joined);
      i += 1;
    } else out.push(words[i]!);
  }
  return out;
}

/** A UK postcode in normal form (`AB10 1AB`), else the text upper-cased without spaces; undefined when empty. */
export function normalisePostcode(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const uk = toNormalised(text);
  if (uk) return uk;
  const plain = text.toUpperCase().replace(/\s+/g, '');
  return plain || undefined;
}

/**
 * A phone number's national digits: punctuation and spaces dropped, `+44`/`0044` and a `(0)` read
 * as the leading 0 of a UK number, `+1`/`1` of a 10-digit North American one dropped. Fewer than 6
 * digits (an extension alone) is no number.
 */
export function normalisePhone(text: string | undefined): string | undefined {
  if (!text) return undefined;
  // An extension is not part of the number publishers agree on.
  const number = text.split(/\s*(?:ext\.?|x|extension)\s*\d+\s*$/i)[0] ?? text;
  let digits = number.replace(/\(0\)/g, '').replace(/\D+/g, '');
  if (number.trim().startsWith('+44') || digits.startsWith('0044')) {
    digits = `0${digits.replace(/^(00)?44/, '')}`;
  } else if (digits.length === 11 && digits.startsWith('1') && !number.trim().startsWith('0')) {
    digits = digits.slice(1);
  }
  return digits.length >= 6 ? digits : undefined;
}

/** An e-mail address in lower case, trimmed; undefined when it is not one. */
export function normaliseEmail(text: string | undefined): string | undefined {
  const email = text
    ?.trim()
    .toLowerCase()
    .replace(/^mailto:/, '');
  return email?.includes('@') ? email : undefined;
}

/** A website's host in lower case without `www.`; a bare `example.org` is read as a URL too. */
export function websiteHost(text: string | undefined): string | undefined {
  const raw = text?.trim();
  if (!raw) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
    return url.hostname.toLowerCase().replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}
