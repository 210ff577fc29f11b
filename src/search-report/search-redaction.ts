/**
 * What the search report may keep of a search text: the text with the identifiers a person types
 * into a search box replaced by a label, before the recorder holds it (src/search-report/
 * search-recorder.ts). Pure: text in, text out.
 *
 * Replaced: e-mail addresses (`[email]`); phone numbers, UK and US shapes (`[phone]`: `+44 7700
 * 900123`, `07700 900123`, `(305) 555-1234`, `305-555-1234`); any other run of 6 or more digits,
 * spaced or punctuated (`[number]`: an NHS number `943 476 5919`, a date of birth `12/03/1985`, a
 * National Insurance number's digits, a case reference); a house number followed by a street
 * (`[address]`: `12 acacia avenue`, `221b baker street`, `1234 nw 5th ave`); a full UK postcode,
 * of which the outward district alone is kept (`[postcode b12]`: a district holds thousands of
 * addresses, enough to say where people look for help, while the full postcode narrows to a few
 * households).
 *
 * Kept as typed: short numbers (`bus 42`, `over 50s`, `24 hours`, a US ZIP code), a district alone
 * (`b12`), words. A person's name cannot be told from a word reliably; what protects it is the
 * recorder's rule that a text is shown only once searched on several days.
 */

const label = (name: string) => `[${name}]`;

// Local part, @, a domain with at least one dot; whatever the characters, a space ends it.
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/gu;

// Outward code (area letters, district digits, optional letter or digit), then the inward code
// (a digit and two letters), with or without the space between them.
const POSTCODE = /(?<![\p{L}\p{N}])([a-z]{1,2}\d[a-z\d]?) ?(\d[a-z]{2})(?![\p{L}\p{N}])/gu;

// Words that say a number is a quantity, not a house number: `24 hour walk in centre`, `2 bed place`.
const QUANTITIES = new Set(
  'a an and or the to in on at of for from with by minute minutes min mins hour hours hr hrs day days week weeks month months year years yr yrs mile miles km bed beds bedroom bedrooms room rooms person people step steps times x'.split(
    ' ',
  ),
);
const STREET_TYPES =
  'street|st|road|rd|avenue|ave|av|lane|ln|close|cl|drive|dr|way|court|ct|crescent|cres|place|pl|terrace|terr|grove|gardens|gdns|square|sq|hill|row|walk|mews|boulevard|blvd|parade|rise|view|green|highway|hwy|circle|cir|broadway|embankment|quay|wharf|yard|passage|vale|park';
// A house number (optionally a letter, `221b`, or a range, `12-14`), one to three name words, a
// street type. The name words are letters (or an ordinal, `5th`), so `42 park and ride` (no name)
// does not match and `12 acacia avenue` does.
const ADDRESS = new RegExp(
  `(?<![\\p{L}\\p{N}])\\d{1,5}[a-z]?(?:-\\d{1,5}[a-z]?)?,? ((?:(?:\\p{L}[\\p{L}'’.-]*|\\d+(?:st|nd|rd|th)) ){1,3})(?:${STREET_TYPES})\\.?(?![\\p{L}\\p{N}])`,
  'gu',
);

// A run of digits joined by single separators (space, dash, dot, slash, parentheses), optionally
// opened by `+` or `(`: every shape of phone number and of spaced reference number.
const DIGIT_RUN = /(?:\+|\()?\d(?:[ \-./()]{0,2}\d)*\)?/gu;

/** How a run of digits is labelled: a phone by its shape, else any 6 digits or more is a number. */
function digitRun(run: string): string {
  const digits = run.replace(/\D/g, '').length;
  if (digits < 6) return run;
  const international = run.startsWith('+') && digits >= 8 && digits <= 15;
  const national = run.startsWith('0') && (digits === 10 || digits === 11);
  // Spaced 3-3-4 is left a number: it is also how an NHS number is written.
  const northAmerican = /^(?:\(\d{3}\) ?|\d{3}[-.])\d{3}[-.]\d{4}$|^\d{3}-\d{4}$/.test(run);
  return label(international || national || northAmerican ? 'phone' : 'number');
}

function address(match: string, words: string): string {
  const first = words.trim().split(' ')[0] ?? '';
  return QUANTITIES.has(first.replace(/[.,]$/, '')) ? match : label('address');
}

/**
 * The text with its identifiers labelled. Expects the recorder's normalised text (lower case,
 * single spaces); compatibility forms are folded first, so full-width digits are digits.
 */
export function redactSearch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(EMAIL, label('email'))
    .replace(POSTCODE, (_match, outward: string) => label(`postcode ${outward}`))
    .replace(ADDRESS, address)
    .replace(DIGIT_RUN, digitRun)
    .replace(/\s+/g, ' ')
    .trim();
}
