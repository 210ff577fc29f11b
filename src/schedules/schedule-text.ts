/**
 * Opening days and times as publishers write them in words, read into the iCal fields HSDS
 * schedules use (`byday`, `freq`, `opens_at`, `closes_at`). Real feeds put `Monday - Friday` in a
 * `weekday` column, `monday` in `freq` or `byday`, `8:30AM` in a date column, and
 * `Monday - Friday, 9:00 a.m. - 5:00 p.m.` in a description; opening rules (opening-rules.ts) read
 * only the iCal fields, so such a schedule never opens unless it is read first.
 *
 * Pure. Each reader says `undefined` unless the whole text is understood: a word it does not know
 * (`Nights`, `By appointment`, `closed on holidays`) leaves the text as published rather than a
 * guess.
 */
import { WEEKDAYS, type Weekday } from './calendar.ts';

/** Days read from words: `byday` as HSDS writes it, and the `freq` it implies. */
export type ReadDays = { byday: string; freq: 'WEEKLY' | 'MONTHLY' };

const dayWords: Record<string, Weekday> = {};
for (const [names, day] of [
  [['mo', 'mon', 'monday', 'mondays'], 'MO'],
  [['tu', 'tue', 'tues', 'tuesday', 'tuesdays'], 'TU'],
  [['we', 'wed', 'weds', 'wednesday', 'wednesdays'], 'WE'],
  [['th', 'thu', 'thur', 'thurs', 'thursday', 'thursdays'], 'TH'],
  [['fr', 'fri', 'friday', 'fridays'], 'FR'],
  [['sa', 'sat', 'saturday', 'saturdays'], 'SA'],
  [['su', 'sun', 'sunday', 'sundays'], 'SU'],
] as const) {
  for (const name of names) dayWords[name] = day;
}

const ordinalWords: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
};

/** Words that name several days at once. */
const groupWords: Record<string, readonly Weekday[]> = {
  daily: WEEKDAYS,
  everyday: WEEKDAYS,
  weekdays: ['MO', 'TU', 'WE', 'TH', 'FR'],
  weekday: ['MO', 'TU', 'WE', 'TH', 'FR'],
  weekends: ['SA', 'SU'],
  weekend: ['SA', 'SU'],
};

// Words that join or frame days without changing them (`Tuesday and Thursday`, `every Monday`,
// `Last Thursday of each month`).
const listWords = new Set(['and', 'or', 'plus']);
const rangeWords = new Set(['to', 'through', 'thru', 'till', 'until']);
const fillerWords = new Set(['of', 'each', 'every', 'the', 'month', 'week', 'on', 'only', 'days', 'day']);

const TOKEN = /\d+(?:st|nd|rd|th)|[a-z]+|[-–—]|[,&/;+]|\s+|\./g;

/** The weekdays from `from` to `to`, wrapping past Sunday (`Saturday - Sunday`, `Sunday - Saturday`). */
function dayRange(from: Weekday, to: Weekday): Weekday[] {
  const start = WEEKDAYS.indexOf(from);
  const end = WEEKDAYS.indexOf(to);
  // `Sunday - Saturday` is the whole week, as the publisher counts it from Sunday.
  const length = (((end - start) % 7) + 7) % 7;
  return Array.from({ length: length + 1 }, (_, i) => WEEKDAYS[(start + i) % 7]!);
}

/**
 * The days a text names: `Monday - Friday`, `Mon-Fri`, `Monday, Wednesday, Friday`,
 * `Tuesday & Thursday`, `Mon - Tue & Thur - Fri`, `monday`, `Weekdays`, `7 days`, and the days of
 * a month (`Second Saturday`, `2nd & 4th Wednesday`, `Last Thursday of each month`). A remark in
 * brackets (`Monday - Friday (closed 1-2pm)`) is not read. Undefined unless every word is a day,
 * an ordinal or a joining word.
 */
export function readDays(text: string): ReadDays | undefined {
  const lower = text
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b(?:7|seven) days(?: a week)?\b/g, ' daily ')
    .replace(/\bevery day\b/g, ' daily ')
    .replace(/\bof the month\b|\bof each month\b|\beach month\b|\ba month\b/g, ' month ');
  const weekly: Weekday[] = [];
  const monthly: string[] = [];
  let ordinals: number[] = [];
  let rangeFrom: Weekday | undefined;
  let last: Weekday | undefined;
  let inRange = false;
  let anyDay = false;
  let consumed = 0;
  for (const match of lower.matchAll(TOKEN)) {
    if (match.index !== consumed) return undefined; // a character no token covers (`9:00`)
    consumed = match.index + match[0].length;
    const token = match[0];
    if (/^\s+$/.test(token) || token === '.' || token === ',' || token === '&' || token === '/') continue;
    if (token === ';' || token === '+' || listWords.has(token) || fillerWords.has(token)) continue;
    if (token === '-' || token === '–' || token === '—' || rangeWords.has(token)) {
      if (last === undefined || inRange) return undefined;
      rangeFrom = last;
      inRange = true;
      continue;
    }
    const ordinal = ordinalWords[token];
    if (ordinal !== undefined) {
      if (inRange) return undefined;
      ordinals.push(ordinal);
      continue;
    }
    const group = groupWords[token];
    if (group) {
      if (inRange || ordinals.length > 0) return undefined;
      weekly.push(...group);
      anyDay = true;
      continue;
    }
    const day = dayWords[token];
    if (day === undefined) return undefined;
    anyDay = true;
    if (inRange) {
      if (ordinals.length > 0) return undefined;
      weekly.push(...dayRange(rangeFrom!, day).slice(1));
      inRange = false;
      last = undefined;
      continue;
    }
    if (ordinals.length > 0) {
      for (const n of ordinals) monthly.push(`${n}${day}`);
      ordinals = [];
      last = undefined; // `2nd Monday - Friday` is not a range anyone means
      continue;
    }
    weekly.push(day);
    last = day;
  }
  if (consumed !== lower.length || !anyDay || inRange || ordinals.length > 0) return undefined;
  // Weekly and monthly days together (`Monday and the 2nd Saturday`) fit no single schedule.
  if (weekly.length > 0 && monthly.length > 0) return undefined;
  if (monthly.length > 0) return { byday: [...new Set(monthly)].join(','), freq: 'MONTHLY' };
  const days = WEEKDAYS.filter((d) => weekly.includes(d));
  return { byday: days.join(','), freq: 'WEEKLY' };
}

/** `9:00am`, `9am`, `9.30 p.m.`, `9:00`, `noon`, `midnight` → `09:00`, `09:00`, `21:30`, ... */
export function normaliseTime(value: string): string | undefined {
  const lower = value.toLowerCase();
  if (lower === 'noon' || lower === 'midday' || lower === '12 noon') return '12:00';
  if (lower === 'midnight') return '00:00';
  let m = /^(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m\.?$/.exec(lower);
  if (m) {
    let hour = Number(m[1]);
    const minute = Number(m[2] ?? 0);
    if (hour < 1 || hour > 12 || minute > 59) return undefined;
    if (m[4] === 'a' && hour === 12) hour = 0;
    if (m[4] === 'p' && hour !== 12) hour += 12;
    return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}${m[3] ? `:${m[3]}` : ''}`;
  }
  m = /^(\d{1,2})[:.](\d{2})(?::(\d{2}))?$/.exec(lower);
  if (m) {
    const hour = Number(m[1]);
    const minute = Number(m[2]);
    if (hour > 23 || minute > 59) return undefined;
    return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}${m[3] ? `:${m[3]}` : ''}`;
  }
  return undefined;
}

/**
 * A clock time as HSDS writes it (`HH:MM`): `8:30AM`, `9:00am`, `9 a.m.`, `5pm`, `17:30`, `noon`,
 * `midnight`, spaces around it read past. Undefined for anything else, a date or seconds included.
 */
export function readClockTime(text: string): string | undefined {
  const time = normaliseTime(text.trim());
  return time?.length === 5 ? time : undefined;
}

/** Whether a text says open all day (`24 hours`, `24/7`, `open 24 hours`). */
export const isAllDay = (text: string): boolean =>
  /^(?:open\s+)?(?:24\s*(?:hours|hrs|h)(?:\s*a\s*day)?|24\s*\/\s*7|all\s+day)$/i.test(text.trim());

/**
 * What a schedule description says in its structured form, when it says nothing else. Open all
 * day is `opens_at` 00:00 without `closes_at` (the end of the day, as opening rules read it).
 */
export type ReadOpening = ReadDays & { opens_at: string; closes_at?: string };

const ALL_DAY = /\b(?:open\s+)?24\s*(?:hours?|hrs?)(?:\s+a\s+day)?\b|\b24\s*\/\s*7\b/i;

/** Whether a text says, anywhere in it, open all day (`Open 24 hours`, `24/7 helpline`). */
export const mentionsAllDay = (text: string): boolean => ALL_DAY.test(text);

// What a description names besides days and hours (`Office: ...`, `... 24 hour hotline`): the
// line or desk the hours belong to, which changes no day or time. A label before a colon is read
// past unless it says something about the hours (`Closed: Monday`, `By appointment:`); a word it
// does not know still leaves the whole text unread.
const LABEL_WORDS =
  /\b(?:help|hot|crisis|phone|call|info)\s*-?\s*lines?\b|\boffices?\b|\b(?:main\s+)?office\s+hours\b/gi;
const LABEL_PREFIX = /^\s*([a-z][a-z &/'-]{0,40}):\s*(?=\S)/i;
const NOT_A_LABEL = /\b(?:closed|except|not|no|appointments?|holidays?|vary|varies|call|only)\b/i;

function withoutLabels(text: string): string {
  const prefix = LABEL_PREFIX.exec(text);
  let rest = text;
  if (prefix && !NOT_A_LABEL.test(prefix[1]!) && readDays(prefix[1]!) === undefined) {
    const words = prefix[1]!.toLowerCase().split(/[\s&/'-]+/);
    if (!words.some((w) => dayWords[w] !== undefined || groupWords[w] !== undefined)) {
      rest = text.slice(prefix[0].length);
    }
  }
  return rest.replace(LABEL_WORDS, ' ').replace(/\s+/g, ' ').trim();
}

/** One run of days and one span of hours (or all day), in either order; see readOpeningText. */
function readOneOpening(text: string): ReadOpening | undefined {
  const clean = withoutLabels(text).replace(/[.;]$/, '');
  const time = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?\s*m\.?)?|noon|midnight`;
  const span = new RegExp(String.raw`(${time})\s*(?:-|–|—|to|until|till)\s*(${time})`, 'i');
  const found = span.exec(clean);
  if (!found) {
    // `24 hours a day, seven days a week`: open all day on the days it names.
    const allDay = ALL_DAY.exec(clean);
    if (!allDay) return undefined;
    const rest = `${clean.slice(0, allDay.index)} ${clean.slice(allDay.index + allDay[0].length)}`
      .replace(/[,:;]/g, ' ')
      .trim();
    const days = rest === '' ? undefined : readDays(rest);
    return days ? { ...days, opens_at: '00:00' } : undefined;
  }
  const opens = readClockTime(found[1]!);
  const closes = readClockTime(found[2]!);
  if (!opens || !closes) return undefined;
  const rest = `${clean.slice(0, found.index)} ${clean.slice(found.index + found[0].length)}`
    .replace(/[,:;]|\bfrom\b|\bopen\b|\bhours\b/gi, ' ')
    .trim();
  if (rest === '') return undefined; // hours without days: no day to open on
  const days = readDays(rest);
  return days ? { ...days, opens_at: opens, closes_at: closes } : undefined;
}

// Whether the hours of `a` hold those of `b` (open all day holds any; a span past midnight is not
// compared).
function holdsHours(a: ReadOpening, b: ReadOpening): boolean {
  if (a.closes_at === undefined) return a.opens_at === '00:00';
  if (b.closes_at === undefined) return false;
  if (a.closes_at < a.opens_at || b.closes_at < b.opens_at) return false;
  return a.opens_at <= b.opens_at && a.closes_at >= b.closes_at;
}

const dayList = (read: ReadOpening) => read.byday.split(',');

/**
 * Several readings of one description as ONE schedule (a schedule record holds one span), only
 * where that is honest: the same hours on other days are one run of all their days; a reading
 * whose days and hours hold every other's is the widest (`Office: Mon - Fri 9 - 5; 24 hour
 * hotline 7 days` is open every hour of every day: the hotline answers). Anything else (other
 * hours on other days, two spans on the same day with a gap: `9 - 12, 1 - 5`) has no single
 * honest reading and is left as published, the description still there for people.
 */
function widestReading(readings: readonly ReadOpening[]): ReadOpening | undefined {
  const [first, ...others] = readings;
  if (!first || others.some((r) => r.freq !== first.freq)) return undefined;
  if (others.every((r) => r.opens_at === first.opens_at && r.closes_at === first.closes_at)) {
    const all = new Set(readings.flatMap(dayList));
    const byday = first.freq === 'WEEKLY' ? WEEKDAYS.filter((d) => all.has(d)).join(',') : [...all].join(',');
    return { ...first, byday };
  }
  return readings.find((wide) =>
    readings.every(
      (r) =>
        r === wide || (r.byday.split(',').every((d) => dayList(wide).includes(d)) && holdsHours(wide, r)),
    ),
  );
}

/**
 * A schedule description that is one run of days and one span of hours (or all day), in either
 * order: `Monday - Friday, 9:00 a.m. - 5:00 p.m.`, `9am-5pm Mon-Fri`, `Mon-Fri: 09:00-17:00`,
 * `24 hours a day, seven days a week`, with a label naming whose hours they are (`Office: ...`,
 * `... 24 hours Helpline`). Parts separated by `;` that each read alone are combined when one
 * schedule can hold them honestly (widestReading). Undefined for anything more (a remark, hours
 * no single schedule holds), which stays for people to read.
 */
export function readOpeningText(text: string): ReadOpening | undefined {
  const whole = readOneOpening(text);
  if (whole || !text.includes(';')) return whole;
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const readings: ReadOpening[] = [];
  for (const part of parts) {
    const read = readOneOpening(part);
    if (!read) return undefined;
    readings.push(read);
  }
  return readings.length > 1 ? widestReading(readings) : undefined;
}

/** One span of opening hours in a day (`HH:MM`), closing after it opens. */
export type HoursSpan = { opens_at: string; closes_at: string };

const SPAN_TIME = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?\s*m\.?)?|noon|midnight`;
const SPANS = new RegExp(String.raw`(${SPAN_TIME})\s*(?:-|–|—|to|until|till)\s*(${SPAN_TIME})`, 'gi');
// What may stand between two spans of one run of days: `9-12 & 1-4`, `9-1 / 2-6`, `9-12 and 1-5`.
const BETWEEN_SPANS = /^\s*(?:&|\/|,|;|and)?\s*$/i;
const LABEL_LINE = /^[a-z][a-z0-9 &/()'-]{0,40}:$/i;

type DaysAndSpans = { days: readonly string[]; spans: HoursSpan[] };

/**
 * One `;` part of a line: spans of hours, then or preceded by days (`9:00am-12:00pm & 1:00pm-3:00pm,
 * Mon-Fri`), or spans alone (their days follow in a later part: `9:00am-12:00pm; 1:00pm-4:00pm,
 * Mon-Fri`). Undefined when a word is not understood.
 */
function readPart(part: string): { days?: readonly string[]; spans: HoursSpan[] } | undefined {
  const spans: HoursSpan[] = [];
  let before = '';
  let after = '';
  let end = 0;
  for (const match of part.matchAll(SPANS)) {
    const gap = part.slice(end, match.index);
    if (spans.length === 0) before = gap;
    else if (!BETWEEN_SPANS.test(gap)) return undefined;
    const opens = readClockTime(match[1]!);
    const closes = readClockTime(match[2]!);
    if (!opens || !closes || closes <= opens) return undefined; // past midnight: not read here
    spans.push({ opens_at: opens, closes_at: closes });
    end = match.index + match[0].length;
  }
  if (spans.length === 0) return undefined;
  after = part.slice(end);
  const strip = (s: string) => s.replace(/^[\s,:&/]+|[\s,:&/.]+$/g, '');
  const [b, a] = [strip(before), strip(after)];
  if (b !== '' && a !== '') return undefined; // days on both sides: not a reading anyone can trust
  const dayText = b || a;
  if (dayText === '') return { spans };
  const days = readDays(dayText);
  if (days?.freq !== 'WEEKLY') return undefined;
  return { days: days.byday.split(','), spans };
}

/**
 * The spans of hours a text gives one weekday, where it gives several (`9:00am-12:00pm;
 * 1:00pm-4:00pm, Mon-Fri`, `8:30am-12:00pm & 1:00pm-3:00pm, Mon-Fri`, `9:00am-1:00pm /
 * 2:00pm-6:00pm, Tue;\n8:30am-12:30pm, Sat`) or one. Lines (real or written `\n`) each name their
 * own days; a line that is only a label (`Clinic:`) is read past. A schedule record holds one span,
 * so the caller makes one schedule per span and the gap between them (a lunch break) stays closed.
 * An empty list when the text names days but not this one; undefined when any part is not
 * understood or two spans of the day overlap (`Administrative Hours` and `Visitation Hours` on the
 * same days: whose hours?), which stays for people to read.
 */
export function readDayHours(text: string, day: Weekday): HoursSpan[] | undefined {
  const lines = text
    .split(/\\n|\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const runs: DaysAndSpans[] = [];
  for (const line of lines) {
    if (LABEL_LINE.test(line) && !NOT_A_LABEL.test(line)) continue;
    let pending: HoursSpan[] = [];
    for (const part of withoutLabels(line).split(';')) {
      if (part.trim() === '') continue;
      const read = readPart(part);
      if (!read) return undefined;
      pending.push(...read.spans);
      if (read.days) {
        runs.push({ days: read.days, spans: pending });
        pending = [];
      }
    }
    if (pending.length > 0) return undefined; // hours without days
  }
  if (runs.length === 0) return undefined;
  const spans = runs
    .filter((run) => run.days.includes(day))
    .flatMap((run) => run.spans)
    .sort((a, b) => (a.opens_at < b.opens_at ? -1 : a.opens_at > b.opens_at ? 1 : 0));
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.opens_at < spans[i - 1]!.closes_at) return undefined;
  }
  return spans;
}
