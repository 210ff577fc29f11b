/**
 * Slicing engine responses without parsing them. A record is stored as JSON and served as JSON:
 * parsing ten kilobytes into objects only to serialise them again costs the API more CPU than
 * anything else on lookups and dumps. These functions find where values start and end (strings,
 * escapes and nesting respected) and hand back the record's own text.
 *
 * The engine writes compact JSON, but whitespace is skipped anyway. Anything unexpected answers
 * `undefined`, and callers fall back to parsing.
 */

const QUOTE = 34; // "
const BACKSLASH = 92; // \
const OPEN_BRACE = 123; // {
const CLOSE_BRACE = 125; // }
const OPEN_BRACKET = 91; // [
const CLOSE_BRACKET = 93; // ]
const COMMA = 44; // ,
const COLON = 58; // :

function skipSpace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  return i;
}

/** The index just past the string that starts at `i` (an opening quote). */
function skipString(text: string, i: number): number {
  // indexOf runs natively: a string is crossed in one call unless it holds an escaped quote.
  for (let q = text.indexOf('"', i + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
  return -1;
}

// The characters that change nesting; `test` with `lastIndex` finds the next one natively.
const STRUCTURAL = /["{}[\]]/g;

/** The index just past the JSON value that starts at `i`; -1 when the text ends first. */
export function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    STRUCTURAL.lastIndex = i;
    while (STRUCTURAL.test(text)) {
      const j = STRUCTURAL.lastIndex - 1;
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        const end = skipString(text, j);
        if (end < 0) return -1;
        STRUCTURAL.lastIndex = end;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (--depth === 0) return j + 1;
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (
      c === COMMA ||
      c === CLOSE_BRACE ||
      c === CLOSE_BRACKET ||
      c === 32 ||
      c === 10 ||
      c === 13 ||
      c === 9
    )
      break;
  }
  return j > i ? j : -1;
}

const decodeKey = (raw: string) => (raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw);

/**
 * Walks the members of the object at `start` once: `visit` gets each key (decoded) and where its
 * value starts, and answers where the value ends (skipValue, or its own walk when it descends),
 * -1 when malformed. Answers the index just past the object, or -1.
 */
function eachMember(text: string, start: number, visit: (key: string, at: number) => number): number {
  let i = skipSpace(text, start);
  if (text.charCodeAt(i) !== OPEN_BRACE) return -1;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return -1;
    const key = decodeKey(text.slice(i + 1, keyEnd - 1));
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return -1;
    const end = visit(key, skipSpace(text, i + 1));
    if (end < 0) return -1;
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(text, i + 1);
  }
}

/** Walks the elements of the array at `start` once (see eachMember). */
function eachElement(text: string, start: number, visit: (at: number) => number): number {
  let i = skipSpace(text, start);
  if (text.charCodeAt(i) !== OPEN_BRACKET) return -1;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = visit(i);
    if (end < 0) return -1;
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACKET) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(text, i + 1);
  }
}

/**
 * Where the value of `key` starts in the object at `start`, or -1. The walk stops there (keys are
 * unique): what follows is not read.
 */
function memberStart(text: string, start: number, key: string): number {
  let found = -1;
  eachMember(text, start, (memberKey, at) => {
    if (memberKey !== key) return skipValue(text, at);
    found = at;
    return -1;
  });
  return found;
}

/** `_source.record` of a get response, as text. */
export function sliceGetRecord(text: string): string | undefined {
  const source = memberStart(text, 0, '_source');
  const record = source < 0 ? -1 : memberStart(text, source, 'record');
  const end = record < 0 ? -1 : skipValue(text, record);
  return end < 0 ? undefined : text.slice(record, end);
}

/** Walks a document's `_source` object at `at`, handing `record`'s text to `use`; its end. */
function sliceSourceRecord(text: string, at: number, use: (record: string) => void): number {
  return eachMember(text, at, (key, valueAt) => {
    const end = skipValue(text, valueAt);
    if (key === 'record' && end >= 0) use(text.slice(valueAt, end));
    return end;
  });
}

/**
 * Whether a multi-get document's `error` (as JSON text) says its index is missing: a document not
 * found. Any other error is a document the engine failed to read (its shard copies lost, say).
 */
export const isMissingIndexError = (errorText: string): boolean =>
  errorText.includes('"index_not_found_exception"');

/**
 * `_source.record` of each document of a multi-get response, as text, in the order asked;
 * undefined for a document that was not found (or whose index is missing); null for one the engine
 * failed to read (another `error` in its place, see isMissingIndexError). Undefined when the text
 * is not a multi-get response.
 */
export function sliceMgetRecords(text: string): (string | undefined | null)[] | undefined {
  const records: (string | undefined | null)[] = [];
  const doc = (at: number) => {
    let record: string | undefined | null;
    const end = eachMember(text, at, (key, valueAt) => {
      if (key === 'error') {
        const errorEnd = skipValue(text, valueAt);
        if (errorEnd >= 0 && !isMissingIndexError(text.slice(valueAt, errorEnd))) record = null;
        return errorEnd;
      }
      if (key !== '_source') return skipValue(text, valueAt);
      return sliceSourceRecord(text, valueAt, (slice) => (record = slice));
    });
    records.push(record);
    return end;
  };
  let sawDocs = false;
  const end = eachMember(text, 0, (key, at) => {
    if (key !== 'docs') return skipValue(text, at);
    sawDocs = true;
    return eachElement(text, at, doc);
  });
  return end < 0 || !sawDocs ? undefined : records;
}

export type SlicedHits = {
  total: number | undefined;
  pitId: string | undefined;
  /** `_source.record` of each hit, as text (`{}` for a hit without one). */
  records: string[];
  /** The sort values of each hit, as text (undefined for a hit without them). */
  sorts: (string | undefined)[];
  /** The sort values of the last hit. */
  lastSort: unknown[] | undefined;
};

/**
 * The hits of a search response: each record as text, the total, the last sort values. One walk
 * over the text: every byte of a record is looked at once.
 */
export function sliceSearchHits(text: string): SlicedHits | undefined {
  let total: number | undefined;
  let pitId: string | undefined;
  const records: string[] = [];
  const sorts: (string | undefined)[] = [];
  const skipParsed = (at: number, use: (value: unknown) => void) => {
    const end = skipValue(text, at);
    if (end >= 0) use(JSON.parse(text.slice(at, end)));
    return end;
  };
  const hit = (at: number) => {
    let record = '{}';
    let sort: string | undefined;
    const end = eachMember(text, at, (key, valueAt) => {
      if (key === 'sort') {
        const sortEnd = skipValue(text, valueAt);
        if (sortEnd >= 0) sort = text.slice(valueAt, sortEnd);
        return sortEnd;
      }
      if (key !== '_source') return skipValue(text, valueAt);
      return sliceSourceRecord(text, valueAt, (slice) => (record = slice));
    });
    records.push(record);
    sorts.push(sort);
    return end;
  };
  const end = eachMember(text, 0, (key, at) => {
    if (key === 'pit_id') return skipParsed(at, (value) => (pitId = value as string));
    if (key !== 'hits') return skipValue(text, at);
    return eachMember(text, at, (hitsKey, hitsAt) => {
      if (hitsKey === 'total')
        return skipParsed(hitsAt, (value) => (total = (value as { value?: number }).value));
      if (hitsKey === 'hits') return eachElement(text, hitsAt, hit);
      return skipValue(text, hitsAt);
    });
  });
  if (end < 0) return undefined;
  const last = sorts.at(-1);
  return {
    total,
    pitId,
    records,
    sorts,
    lastSort: last === undefined ? undefined : (JSON.parse(last) as unknown[]),
  };
}
