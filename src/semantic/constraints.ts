/**
 * Constraints read from a search's text (issue 51): a place ("in Hialeah", "near Fishponds", a
 * postcode or ZIP), a language ("Creole speaking", "in Spanish", "Polish speaker"), an age or group
 * ("for teenagers", "over 50s", "seniors") and cost ("free"). Pure: text and the directory's own
 * places in, the constraints and the need's text (the words they did not consume) out; the query
 * side is src/index-mapping/constraints.query.ts.
 *
 * Why each rule:
 * - A place is only a place the directory serves (its addresses' cities, regions and postal
 *   codes: places.document.ts), never a list written here, and only where the text says it is one:
 *   after "in", "near", "around" or "within", or closing a search that names a need before it
 *   ("food bank Homestead"). "Hialeah Hospital" is a name: the place opens it.
 * - A language needs its cue ("speaking", "speaker", "speaks", "in"): "Somali community centre"
 *   and "Chinese community support" are groups of people, searched by their words.
 * - An age is a range, read from the forms people type; its words stay words of the need (most
 *   records say an age only in words), and groups without a field to filter on (veterans,
 *   carers, women) are not read at all.
 * - "free" is a cost only as a request ("free clinic", "for free", "no cost"), not in "drug free";
 *   like an age, its words stay the need's.
 */
import type { Constraint, Understood } from '../index-mapping/constraints.query.ts';
import { placeKey, postalForms } from '../index-mapping/places.document.ts';

/** The places a directory serves, as placeKey() writes them. */
export type Gazetteer = ReadonlySet<string>;

/** Languages by the names people type, with the values feeds publish (ISO 639-1 code, name). */
const LANGUAGES: Record<string, readonly string[]> = {
  english: ['en', 'english'],
  spanish: ['es', 'spanish', 'español', 'espanol'],
  creole: ['ht', 'creole', 'haitian creole', 'kreyol', 'haitian'],
  'haitian creole': ['ht', 'creole', 'haitian creole', 'kreyol', 'haitian'],
  french: ['fr', 'french'],
  portuguese: ['pt', 'portuguese'],
  polish: ['pl', 'polish'],
  russian: ['ru', 'russian'],
  ukrainian: ['uk', 'ukrainian'],
  romanian: ['ro', 'romanian'],
  lithuanian: ['lt', 'lithuanian'],
  arabic: ['ar', 'arabic'],
  urdu: ['ur', 'urdu'],
  punjabi: ['pa', 'punjabi'],
  bengali: ['bn', 'bengali'],
  hindi: ['hi', 'hindi'],
  gujarati: ['gu', 'gujarati'],
  somali: ['so', 'somali'],
  chinese: ['zh', 'chinese', 'mandarin', 'cantonese'],
  mandarin: ['zh', 'mandarin', 'chinese'],
  cantonese: ['yue', 'cantonese', 'chinese'],
  vietnamese: ['vi', 'vietnamese'],
  korean: ['ko', 'korean'],
  tagalog: ['tl', 'tagalog', 'filipino'],
  turkish: ['tr', 'turkish'],
  farsi: ['fa', 'farsi', 'persian'],
  persian: ['fa', 'persian', 'farsi'],
  kurdish: ['ku', 'kurdish'],
  tigrinya: ['ti', 'tigrinya'],
  amharic: ['am', 'amharic'],
  hebrew: ['he', 'hebrew'],
  yiddish: ['yi', 'yiddish'],
  german: ['de', 'german'],
  italian: ['it', 'italian'],
  welsh: ['cy', 'welsh'],
  'sign language': ['sgn', 'sign language', 'bsl', 'asl', 'british sign language', 'american sign language'],
  bsl: ['bsl', 'british sign language', 'sign language', 'sgn'],
  asl: ['asl', 'american sign language', 'sign language', 'sgn'],
};
const LANGUAGE_NAMES = Object.keys(LANGUAGES)
  .sort((a, b) => b.length - a.length)
  .join('|');

const OLDEST = 120;

/** Age forms, each with the range it means; `m` is the match, groups as named below. */
const AGE_FORMS: readonly { pattern: RegExp; range: (m: RegExpExecArray) => [number, number] }[] = [
  // "over 50s", "over-60s", "over 30", "aged 50+", "50+", "65 and over"
  { pattern: /\b(?:for\s+)?(?:the\s+)?over[\s-]?(\d{1,2})'?s?\b/i, range: (m) => [Number(m[1]), OLDEST] },
  {
    pattern: /\b(?:aged\s+)?(\d{1,2})\s?(?:\+|plus\b|and\s+over\b|or\s+over\b)/i,
    range: (m) => [Number(m[1]), OLDEST],
  },
  {
    pattern: /\b(?:for\s+)?(?:the\s+)?under[\s-]?(\d{1,2})'?s?\b/i,
    range: (m) => [0, Math.max(0, Number(m[1]) - 1)],
  },
  { pattern: /\b(?:for\s+)?(?:teens?|teenagers?|adolescents?)\b/i, range: () => [13, 19] },
  { pattern: /\b(?:for\s+)?(?:young\s+people|youths?)\b/i, range: () => [11, 25] },
  {
    pattern:
      /\b(?:for\s+)?(?:seniors?|senior\s+citizens?|pensioners?|the\s+elderly|elderly\s+people|older\s+(?:people|adults))\b/i,
    range: () => [60, OLDEST],
  },
  { pattern: /\bfor\s+(?:the\s+)?(?:kids|children|a\s+child|my\s+child)\b/i, range: () => [0, 12] },
];

const COST_FORMS = [
  /\bfor\s+free\b/i,
  /\bfree\s+of\s+charge\b/i,
  /\b(?:at\s+)?no\s+cost\b/i,
  /^free\b/i,
  /\b(?:get|need|want)\s+free\b/i,
];

const PLACE_CUE = /\b(?:in|near|around|within|nearby)\s+$/i;
const PLACE_CUE_WORDS = /\s*\b(?:in|near|around|within|nearby)\s*$/i;
/** Words a need never is: a place closing the text after only these is still a name ("the Hialeah"). */
const MAX_PLACE_WORDS = 4;

type Span = { start: number; end: number };

/** Removes spans from text, joined by single spaces. */
function without(text: string, spans: readonly Span[]): string {
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, span.start)} `;
    at = Math.max(at, span.end);
  }
  return `${out}${text.slice(at)}`.replace(/\s+/g, ' ').trim();
}

const hasLetter = (text: string) => /[\p{L}\p{N}]/u.test(text);

function readLanguage(text: string): { constraint: Constraint; span: Span } | undefined {
  const forms = [
    new RegExp(`\\b(${LANGUAGE_NAMES})[\\s-]+(?:speaking|speakers?|spoken)\\b`, 'i'),
    new RegExp(`\\b(?:who\\s+|that\\s+)?(?:speaks?|speaking)\\s+(${LANGUAGE_NAMES})\\b`, 'i'),
    new RegExp(`\\bin\\s+(${LANGUAGE_NAMES})\\b`, 'i'),
  ];
  for (const form of forms) {
    const m = form.exec(text);
    if (!m) continue;
    const language = m[1]!.toLowerCase();
    return {
      constraint: { kind: 'language', text: m[0], language, values: LANGUAGES[language]! },
      span: { start: m.index, end: m.index + m[0].length },
    };
  }
  return undefined;
}

function readAge(text: string): { constraint: Constraint; span: Span } | undefined {
  for (const { pattern, range } of AGE_FORMS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const [from, to] = range(m);
    if (from > to) continue;
    const words = m[0].replace(/^\s*for\s+(?:the\s+)?/i, '');
    // An age's words stay the need's (an empty span): most records state an age only in their
    // words ("for young people", "18 or over"), and without them as required words Bristol's
    // development set lost "drug and alcohol service for young people" (1.0 -> 0.63) and "youth
    // club" (0.78 -> 0.54). The filter only leaves out services whose stated range does not take it.
    return {
      constraint: { kind: 'age', text: m[0].trim(), from, to, words },
      span: { start: m.index, end: m.index },
    };
  }
  return undefined;
}

function readCost(text: string): { constraint: Constraint; span: Span } | undefined {
  for (const form of COST_FORMS) {
    const m = form.exec(text);
    if (!m) continue;
    // "free" stays a word of the need (an empty span): it is in names ("Free Clinic") and
    // descriptions far more often than in cost fields, and without it Miami's development set
    // lost "I need my taxes done for free" (0.84 -> 0). The free field only ranks.
    return {
      constraint: { kind: 'cost', text: m[0].trim(), words: 'free' },
      span: { start: m.index, end: m.index },
    };
  }
  return undefined;
}

/** Word tokens with their offsets. */
function wordsOf(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)].map((m) => ({
    word: m[0].replace(/[.'’-]+$/, ''),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function readPlace(text: string, places: Gazetteer): { constraint: Constraint; span: Span } | undefined {
  if (places.size === 0) return namedPlace(text);
  const tokens = wordsOf(text);
  // Longest first, left to right: "Miami Beach" before "Miami", "North Miami Beach" before both.
  for (let length = Math.min(MAX_PLACE_WORDS, tokens.length); length >= 1; length--) {
    for (let i = 0; i + length <= tokens.length; i++) {
      const first = tokens[i]!;
      const last = tokens[i + length - 1]!;
      const written = text.slice(first.start, last.end).replace(/[.'’-]+$/, '');
      const key = placeKey(written);
      const postal = postalForms(key);
      const known = places.has(key) || (/\d/.test(key) && postal.some((form) => places.has(form)));
      if (!known) continue;
      const before = text.slice(0, first.start);
      const after = text.slice(last.end);
      const cued = PLACE_CUE.test(before);
      const closes = !hasLetter(after) && hasLetter(before);
      const alone = !hasLetter(before) && !hasLetter(after);
      // A postcode or ZIP is a place wherever it stands; a name only with a cue, closing a need, or alone.
      if (!(cued || closes || alone || /\d/.test(key))) continue;
      const cue = PLACE_CUE_WORDS.exec(before);
      const start = cued && cue ? cue.index : first.start;
      const place = /\d/.test(key) && !places.has(key) ? postal.find((form) => places.has(form))! : key;
      return {
        constraint: {
          kind: 'place',
          text: text.slice(start, last.end).trim(),
          place,
          words: written,
          known: true,
        },
        span: { start, end: last.end },
      };
    }
  }
  return namedPlace(text);
}

/**
 * One or two title-case words closing a text whose other words are lower case ("food bank
 * Bedminster", "warm space Bradley Stoke"): how people add a place to a need. A name is typed in
 * capitals throughout ("Bristol Drugs Project"), an abbreviation in upper case ("help with PIP").
 */
function closingPlace(text: string): RegExpExecArray | null {
  const m = /(?:^|\s)((?:\p{Lu}\p{Ll}[\p{L}'’-]*)(?:\s+\p{Lu}\p{Ll}[\p{L}'’-]*)?)\s*$/u.exec(text);
  if (!m) return null;
  const before = text.slice(0, m.index);
  return /\p{Lu}/u.test(before) || !/\p{Ll}{2}/u.test(before) ? null : m;
}

/** Capitalised words a place name never is. */
const NOT_PLACES = new Set(['i', 'me', 'my', 'the', 'a', 'an', 'we', 'us', 'our', 'you']);

/**
 * A place the directory's addresses do not name, said as one ("memory cafe in Fishponds"): after
 * "in", "near" or "around", one to three capitalised words closing the text. Many directories
 * publish no addresses (ORUK feeds of service list items) and say where in their words; such a
 * place ranks the services naming it first (a boost), without being a required word that leaves
 * out the services that do not name it.
 */
function namedPlace(text: string): { constraint: Constraint; span: Span } | undefined {
  const m =
    /\b(?:in|near|around)\s+((?:\p{Lu}[\p{L}'’-]*)(?:\s+\p{Lu}[\p{L}'’-]*){0,2})\s*[.!?]?\s*$/u.exec(text) ??
    closingPlace(text);
  if (!m || !hasLetter(text.slice(0, m.index))) return undefined;
  const words = m[1]!;
  if (words.split(/\s+/).some((w) => NOT_PLACES.has(w.toLowerCase()))) return undefined;
  return {
    constraint: { kind: 'place', text: m[0].trim(), place: placeKey(words), words, known: false },
    span: { start: m.index, end: m.index + m[0].length },
  };
}

/**
 * The constraints a search's text states, and the text of its need without their words; the
 * kinds in `ignore` are not read (a person removed them). Undefined when it states none.
 */
export function readConstraints(
  text: string,
  places: Gazetteer,
  ignore: ReadonlySet<string> = new Set(),
): Understood | undefined {
  const found: { constraint: Constraint; span: Span }[] = [];
  let rest = text;
  // Language first: "in Spanish" is not a place, whatever the directory holds.
  const readers = [
    ['language', readLanguage],
    ['age', readAge],
    ['cost', readCost],
    ['place', (t: string) => readPlace(t, places)],
  ] as const;
  for (const [kind, read] of readers) {
    if (ignore.has(kind)) continue;
    const hit = read(rest);
    if (!hit) continue;
    found.push(hit);
    rest = without(rest, [hit.span]);
  }
  if (found.length === 0) return undefined;
  return { constraints: found.map((f) => f.constraint), needText: rest };
}
