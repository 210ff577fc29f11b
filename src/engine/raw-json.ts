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
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** The index just past the JSON value that starts at `i`; -1 when the text ends first. */
export function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        j = skipString(text, j) - 1;
        if (j < 0) return -1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
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

export type Slice = { start: number; end: number };

/** The members of the object starting at `start`: key (decoded) and where its value lies. */
export function objectMembers(text: string, start: number): Map<string, Slice> | undefined {
  const members = new Map<string, Slice>();
  let i = skipSpace(text, start);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return members;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const rawKey = text.slice(i + 1, keyEnd - 1);
    const key = rawKey.includes('\\') ? (JSON.parse(`"${rawKey}"`) as string) : rawKey;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    members.set(key, { start: i, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return members;
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The elements of the array starting at `start`. */
export function arrayElements(text: string, start: number): Slice[] | undefined {
  const elements: Slice[] = [];
  let i = skipSpace(text, start);
  if (text.charCodeAt(i) !== OPEN_BRACKET) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return elements;
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    elements.push({ start: i, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACKET) return elements;
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The text of the value at `path` (object keys) from the object starting at `start`. */
export function slicePath(text: string, path: readonly string[], start = 0): Slice | undefined {
  let at: Slice = { start, end: text.length };
  for (const key of path) {
    const member = objectMembers(text, at.start)?.get(key);
    if (!member) return undefined;
    at = member;
  }
  return at;
}

const sliceText = (text: string, slice: Slice | undefined) =>
  slice ? text.slice(slice.start, slice.end) : undefined;

/** `_source.record` of a get response, as text. */
export function sliceGetRecord(text: string): string | undefined {
  return sliceText(text, slicePath(text, ['_source', 'record']));
}

export type SlicedHits = {
  total: number | undefined;
  pitId: string | undefined;
  /** `_source.record` of each hit, as text (`{}` for a hit without one). */
  records: string[];
  /** The sort values of the last hit. */
  lastSort: unknown[] | undefined;
};

/** The hits of a search response: each record as text, the total, the last sort values. */
export function sliceSearchHits(text: string): SlicedHits | undefined {
  const top = objectMembers(text, 0);
  if (!top) return undefined;
  const pit = top.get('pit_id');
  const hitsObject = top.get('hits');
  const hitsMembers = hitsObject ? objectMembers(text, hitsObject.start) : new Map<string, Slice>();
  if (!hitsMembers) return undefined;
  const totalSlice = hitsMembers.get('total');
  const total = totalSlice
    ? (JSON.parse(text.slice(totalSlice.start, totalSlice.end)) as { value?: number }).value
    : undefined;
  const list = hitsMembers.get('hits');
  const elements = list ? arrayElements(text, list.start) : [];
  if (!elements) return undefined;
  const records: string[] = [];
  let lastSort: unknown[] | undefined;
  for (const [n, element] of elements.entries()) {
    const hit = objectMembers(text, element.start);
    if (!hit) return undefined;
    const source = hit.get('_source');
    const record = source ? objectMembers(text, source.start)?.get('record') : undefined;
    records.push(record ? text.slice(record.start, record.end) : '{}');
    if (n === elements.length - 1) {
      const sort = hit.get('sort');
      lastSort = sort ? (JSON.parse(text.slice(sort.start, sort.end)) as unknown[]) : undefined;
    }
  }
  return {
    total,
    pitId: pit ? (JSON.parse(text.slice(pit.start, pit.end)) as string) : undefined,
    records,
    lastSort,
  };
}
