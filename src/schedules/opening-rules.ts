/**
 * When a schedule is open, in a form a search engine can test for any instant: one "opening rule"
 * per schedule, indexed with its record, and the "frames" of an instant computed when a search asks.
 *
 * A rule says on which dates an occurrence falls (date tokens, an interval phase, a first and a
 * last date) and the minutes it covers, counted from the start of its date. The dates are the
 * schedule's own local dates; the minutes are counted from UTC midnight of that date when the
 * schedule's offset is known (its `timezone`, else an offset in `opens_at`), so one instant tests
 * every offset at once, and from local midnight in DIRECTORY_TIMEZONE otherwise (`zoned`), which
 * the search resolves at the instant it asks about: a change of the directory's zone or its
 * summer time needs no reindex. Nothing here depends on when it was computed, so nothing goes
 * stale: the engine tests the rules against the instant of each search.
 *
 * Semantics (docs/api.md, "Open now"): freq WEEKLY, MONTHLY (and DAILY); no freq reads as WEEKLY with
 * `byday`, MONTHLY with `bymonthday`, else the single date `dtstart`. `interval` counts weeks
 * (from Monday), months or days from `dtstart` (else `valid_from`). `count` ends the rule at its
 * count-th occurrence, found by the `rrule` library. `valid_from`/`valid_to`, `dtstart`/`until`
 * bound the dates. An occurrence on date d is open from d + opens_at to d + closes_at, on the next
 * day when closes_at is not after opens_at; a missing opens_at is midnight, a missing closes_at the
 * end of the day. A schedule with neither time gives its days but not its hours: unknown hours,
 * not open all day, so it gives no rule (an `open_now` search would otherwise find a Monday
 * advice session "open" at 3 a.m.), unless its description or notes say open 24 hours (`24/7`).
 * `byweekno`, `byyearday` and `wkst` are not read.
 */
import { createRequire } from 'node:module';
import type { ScheduleFull } from '../hsds/index.ts';
import {
  calendarDay,
  dayNumber,
  localAt,
  modulo,
  monthIndex,
  offsetTextMinutes,
  type Weekday,
  weekIndex,
  zoneOffsetMinutes,
} from './calendar.ts';
import { mentionsAllDay } from './schedule-text.ts';

// rrule ships CommonJS (UMD) whose named exports Node cannot see from ESM.
const { RRule } = createRequire(import.meta.url)('rrule') as typeof import('rrule');

/** One schedule's openings, as indexed (F.opening). */
export type OpeningRule = {
  /** Date tokens: `ANY`, `W:MO` (a weekday), `M:1MO` / `M:-1FR` (its nth in the month), `D:15` / `D:-1` (a month day). */
  days: string[];
  /** `1`, or `W2:1` / `M3:0` / `D2:1`: the interval and the remainder its dates leave. */
  phase: string;
  /** First and last dates (day numbers, 1970-01-01 = 0), inclusive. */
  first_day: number;
  last_day: number;
  /** Minutes covered, from UTC midnight of the local date (or local midnight when `zoned`). */
  start: number;
  end: number;
  /** Local time is DIRECTORY_TIMEZONE's, resolved when a search asks. */
  zoned: boolean;
};

/** Dates without a bound on either side (day numbers far outside any schedule). */
export const NO_FIRST_DAY = -1_000_000;
export const NO_LAST_DAY = 10_000_000;

/** The longest intervals a search tests: longer ones never match (docs/api.md, "Open now"). */
export const MAX_INTERVAL = { W: 104, M: 36, D: 62 } as const;
type Unit = keyof typeof MAX_INTERVAL;

// HH:MM[:SS], with `Z` or an offset as the schedule descriptions ask (09:00-05:00); `9:00am` and
// `5pm` as feeds write them.
const TIME =
  /^(\d{1,2})(?::(\d{2}))?(?::\d{2}(?:\.\d+)?)?\s*(am|pm|a\.m\.|p\.m\.)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseTime(text: string | undefined): { minute: number; offset?: number } | undefined {
  const match = text === undefined ? null : TIME.exec(text.trim());
  if (!match || (match[2] === undefined && match[3] === undefined)) return undefined;
  let hour = Number(match[1]);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.startsWith('p') ? 12 : 0);
  }
  const minute = hour * 60 + Number(match[2] ?? 0);
  if (minute > 24 * 60 || Number(match[2] ?? 0) > 59) return undefined;
  const offset = match[4];
  if (offset === undefined) return { minute };
  return { minute, offset: offsetTextMinutes(offset.length === 3 ? `${offset}:00` : offset) };
}

/** A time that is given but unreadable: the schedule says nothing a search can trust. */
const unreadable = (time: string | undefined) =>
  time !== undefined && time.trim() !== '' && parseTime(time) === undefined;

const BYDAY = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

function parseByDay(byday: string | undefined): { n: number | undefined; weekday: Weekday }[] {
  const out: { n: number | undefined; weekday: Weekday }[] = [];
  for (const part of (byday ?? '').split(',')) {
    const match = BYDAY.exec(part.trim().toUpperCase());
    if (!match) continue;
    const n = match[1] === undefined ? undefined : Number(match[1]);
    out.push({ n: n === 0 ? undefined : n, weekday: match[2] as Weekday });
  }
  return out;
}

const parseMonthDays = (bymonthday: string | undefined): number[] =>
  (bymonthday ?? '')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isInteger(n) && n !== 0 && Math.abs(n) <= 31);

type Frequency = 'WEEKLY' | 'MONTHLY' | 'DAILY' | 'ONCE';

function frequencyOf(schedule: ScheduleFull): Frequency | undefined {
  const freq = typeof schedule.freq === 'string' ? schedule.freq.toUpperCase() : undefined;
  if (freq === 'WEEKLY' || freq === 'MONTHLY' || freq === 'DAILY') return freq;
  if (freq !== undefined) return undefined;
  if (parseByDay(schedule.byday).length > 0) return 'WEEKLY';
  if (parseMonthDays(schedule.bymonthday).length > 0) return 'MONTHLY';
  return dayNumber(schedule.dtstart) === undefined ? undefined : 'ONCE';
}

/** The schedule's offset from UTC in minutes, when it states one. */
function offsetOf(schedule: ScheduleFull): number | undefined {
  if (typeof schedule.timezone === 'number' && Number.isFinite(schedule.timezone)) {
    return Math.round(schedule.timezone * 60);
  }
  return parseTime(schedule.opens_at)?.offset ?? parseTime(schedule.closes_at)?.offset;
}

/** The day of the count-th occurrence, by the rrule library, counted from dtstart. */
function countEnd(
  schedule: ScheduleFull,
  freq: Frequency,
  dtstart: number,
  interval: number,
): number | undefined {
  const count = schedule.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return undefined;
  if (freq === 'ONCE') return dtstart;
  const byday = parseByDay(schedule.byday);
  const monthDays = parseMonthDays(schedule.bymonthday);
  const weekday = (w: Weekday) => RRule[w];
  const rule = new RRule({
    freq: freq === 'WEEKLY' ? RRule.WEEKLY : freq === 'MONTHLY' ? RRule.MONTHLY : RRule.DAILY,
    interval,
    dtstart: new Date(dtstart * 86_400_000),
    count: Math.min(count, 100_000),
    ...(byday.length > 0
      ? {
          byweekday: byday.map(({ n, weekday: w }) =>
            n !== undefined && freq === 'MONTHLY' ? weekday(w).nth(n) : weekday(w),
          ),
        }
      : {}),
    ...(monthDays.length > 0 && freq === 'MONTHLY' ? { bymonthday: monthDays } : {}),
  });
  let last: Date | undefined;
  rule.all((date) => {
    last = date;
    return true;
  });
  // No occurrence at all: the rule never opens.
  return last === undefined ? NO_FIRST_DAY : Math.floor(last.getTime() / 86_400_000);
}

const blank = (time: string | undefined) => time === undefined || time.trim() === '';

/** Neither time given, and no word that it is open all day: the hours are unknown. */
const hoursUnknown = (schedule: ScheduleFull) =>
  blank(schedule.opens_at) &&
  blank(schedule.closes_at) &&
  ![schedule.description, schedule.notes].some((text) => typeof text === 'string' && mentionsAllDay(text));

/** The opening rule of one schedule, or undefined when it says nothing a date and time can match. */
export function toOpeningRule(schedule: ScheduleFull): OpeningRule | undefined {
  const freq = frequencyOf(schedule);
  if (freq === undefined || unreadable(schedule.opens_at) || unreadable(schedule.closes_at)) return undefined;
  if (hoursUnknown(schedule)) return undefined;
  const dtstart = dayNumber(schedule.dtstart);
  const validFrom = dayNumber(schedule.valid_from);
  const interval =
    typeof schedule.interval === 'number' && Number.isInteger(schedule.interval) && schedule.interval > 1
      ? schedule.interval
      : 1;

  const byday = parseByDay(schedule.byday);
  const monthDays = parseMonthDays(schedule.bymonthday);
  let days: string[];
  if (freq === 'WEEKLY') {
    const weekdays = byday.map((d) => d.weekday);
    if (weekdays.length === 0 && dtstart !== undefined) weekdays.push(calendarDay(dtstart).weekday);
    days = weekdays.map((w) => `W:${w}`);
  } else if (freq === 'MONTHLY') {
    days = [
      ...byday.map(({ n, weekday }) => (n === undefined ? `W:${weekday}` : `M:${n}${weekday}`)),
      ...monthDays.map((n) => `D:${n}`),
    ];
    if (days.length === 0 && dtstart !== undefined) days.push(`D:${calendarDay(dtstart).monthDay}`);
  } else {
    days = ['ANY'];
  }
  if (days.length === 0) return undefined;

  const unit: Unit = freq === 'WEEKLY' ? 'W' : freq === 'MONTHLY' ? 'M' : 'D';
  const anchor = dtstart ?? validFrom;
  const index = unit === 'W' ? weekIndex : unit === 'M' ? monthIndex : (day: number) => day;
  const phase =
    interval === 1 || anchor === undefined ? '1' : `${unit}${interval}:${modulo(index(anchor), interval)}`;

  const ends = [
    dayNumber(schedule.until),
    dayNumber(schedule.valid_to),
    freq === 'ONCE' ? dtstart : undefined,
    dtstart === undefined ? undefined : countEnd(schedule, freq, dtstart, interval),
  ].filter((d): d is number => d !== undefined);
  const starts = [dtstart, validFrom].filter((d): d is number => d !== undefined);

  const opens = parseTime(schedule.opens_at)?.minute ?? 0;
  let closes = parseTime(schedule.closes_at)?.minute ?? 24 * 60;
  // Past midnight: a night shelter open 20:00 to 08:00 closes the next morning.
  if (closes <= opens) closes += 24 * 60;
  const offset = offsetOf(schedule);
  const shift = offset ?? 0;
  return {
    days,
    phase,
    first_day: starts.length > 0 ? Math.max(...starts) : NO_FIRST_DAY,
    last_day: ends.length > 0 ? Math.min(...ends) : NO_LAST_DAY,
    start: opens - shift,
    end: closes - shift,
    zoned: offset === undefined,
  };
}

/** The opening rules of some schedules, one per schedule that can open (duplicates once). */
export function toOpeningRules(schedules: readonly ScheduleFull[]): OpeningRule[] {
  const seen = new Set<string>();
  const rules: OpeningRule[] = [];
  for (const schedule of schedules) {
    const rule = toOpeningRule(schedule);
    if (!rule) continue;
    const key = JSON.stringify(rule);
    if (seen.has(key)) continue;
    seen.add(key);
    rules.push(rule);
  }
  return rules;
}

/**
 * One date an instant may fall in an occurrence of, and the minute the instant is from that
 * date's start: a rule matches a frame when the date matches its tokens, phase and bounds, and
 * start <= minute < end.
 */
export type OpeningFrame = {
  zoned: boolean;
  day: number;
  minute: number;
  /** Date tokens the day matches (OpeningRule.days). */
  days: string[];
  /** Phase tokens the day matches (OpeningRule.phase). */
  phases: string[];
};

/** The date tokens of a day. */
export function dayTokens(day: number): string[] {
  const { weekday, monthDay, daysInMonth } = calendarDay(day);
  const fromEnd = daysInMonth - monthDay;
  return [
    'ANY',
    `W:${weekday}`,
    `M:${Math.ceil(monthDay / 7)}${weekday}`,
    `M:-${Math.floor(fromEnd / 7) + 1}${weekday}`,
    `D:${monthDay}`,
    `D:-${fromEnd + 1}`,
  ];
}

/** The phase tokens of a day: `1` and, for every interval a search tests, the remainder. */
export function phaseTokens(day: number): string[] {
  const tokens = ['1'];
  const indices: Record<Unit, number> = { W: weekIndex(day), M: monthIndex(day), D: day };
  for (const unit of Object.keys(MAX_INTERVAL) as Unit[]) {
    for (let n = 2; n <= MAX_INTERVAL[unit]; n++) tokens.push(`${unit}${n}:${modulo(indices[unit], n)}`);
  }
  return tokens;
}

const frame = (zoned: boolean, day: number, minute: number): OpeningFrame => ({
  zoned,
  day,
  minute,
  days: dayTokens(day),
  phases: phaseTokens(day),
});

/**
 * The frames of an instant. Rules with a known offset count minutes from UTC midnight of their
 * local date; an opening runs from at most 14 hours before it (opens_at - offset, offset up to
 * +14:00) to 2 days and 12 hours after it (closes_at on the next day, offset down to -12:00), so
 * the instant falls on the UTC date D of the instant seen from D - 2 to D + 1. Zoned rules: the
 * local date in DIRECTORY_TIMEZONE and the day before (past midnight).
 */
export function openingFrames(instant: number, directoryZone: string): OpeningFrame[] {
  const utc = localAt(instant, 0);
  const local = localAt(instant, zoneOffsetMinutes(directoryZone, instant));
  return [
    ...[-1, 0, 1, 2].map((back) => frame(false, utc.day - back, utc.minute + back * 24 * 60)),
    frame(true, local.day, local.minute),
    frame(true, local.day - 1, local.minute + 24 * 60),
  ];
}

/** Whether a rule is open in a frame: what the engine's query tests (opening.query.ts), in process. */
export function ruleMatches(rule: OpeningRule, f: OpeningFrame): boolean {
  return (
    rule.zoned === f.zoned &&
    rule.days.some((d) => f.days.includes(d)) &&
    f.phases.includes(rule.phase) &&
    rule.first_day <= f.day &&
    rule.last_day >= f.day &&
    rule.start <= f.minute &&
    rule.end > f.minute
  );
}

/** Whether any of the rules is open at the instant: the engine's answer, in process. */
export function openAt(rules: readonly OpeningRule[], instant: number, directoryZone: string): boolean {
  const frames = openingFrames(instant, directoryZone);
  return rules.some((rule) => frames.some((f) => ruleMatches(rule, f)));
}
