/**
 * Calendar arithmetic on days numbered from 1970-01-01 (day 0, a Thursday), and the local time of
 * an instant in an IANA zone. Pure; the zone database is the runtime's (Intl).
 */

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Each weekday's name in English, by its RRULE code. */
export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

/** The name of the weekday an RRULE code (`mo`, `SU`) stands for; undefined for anything else. */
export function weekdayName(code: string): string | undefined {
  const upper = code.toUpperCase();
  return (WEEKDAYS as readonly string[]).includes(upper) ? WEEKDAY_NAMES[upper as Weekday] : undefined;
}

const MS_PER_DAY = 86_400_000;

/** `YYYY-MM-DD` (a longer ISO text is read by its date) → day number, or undefined. */
export function dayNumber(date: string | undefined): number | undefined {
  const match = date === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(ms) ? undefined : Math.floor(ms / MS_PER_DAY);
}

export type CalendarDay = {
  day: number;
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  monthDay: number;
  daysInMonth: number;
  weekday: Weekday;
};

export function calendarDay(day: number): CalendarDay {
  const date = new Date(day * MS_PER_DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  return {
    day,
    year,
    month,
    monthDay: date.getUTCDate(),
    daysInMonth: new Date(Date.UTC(year, month, 0)).getUTCDate(),
    // Day 0 was a Thursday.
    weekday: WEEKDAYS[(((day + 3) % 7) + 7) % 7] as Weekday,
  };
}

/** Weeks counted from the Monday of 1969-12-29 (RRULE's default week start, WKST=MO). */
export const weekIndex = (day: number): number => Math.floor((day + 3) / 7);

/** Months counted from January 1970. */
export const monthIndex = (day: number): number => {
  const { year, month } = calendarDay(day);
  return (year - 1970) * 12 + (month - 1);
};

export const modulo = (value: number, n: number): number => ((value % n) + n) % n;

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (zone: string): Intl.DateTimeFormat => {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
};

/** Whether the runtime knows this IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at this instant, in minutes (east positive). */
export function zoneOffsetMinutes(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** An instant as a local day number and minute of the day, at a fixed offset (minutes east). */
export function localAt(instant: number, offsetMinutes: number): { day: number; minute: number } {
  const local = instant + offsetMinutes * 60_000;
  const day = Math.floor(local / MS_PER_DAY);
  return { day, minute: Math.floor((local - day * MS_PER_DAY) / 60_000) };
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * An RFC 3339 date-time (or a date: its midnight) as an instant; one written without an offset is
 * local time in `zone`. Undefined when it is no such text or no such date.
 */
export function parseInstant(text: string, zone: string): number | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', offset] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(wall);
  if (
    Number.isNaN(wall) ||
    check.getUTCDate() !== Number(d) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    return undefined;
  if (offset !== undefined) return wall - offsetTextMinutes(offset) * 60_000;
  // The zone's offset at the wall time read as UTC, then at the instant that gives: right on both
  // sides of a change of offset except inside the skipped or repeated hour.
  const first = wall - zoneOffsetMinutes(zone, wall) * 60_000;
  return wall - zoneOffsetMinutes(zone, first) * 60_000;
}

/** `Z`, `+01:00`, `-0500` → minutes east of UTC. */
export function offsetTextMinutes(offset: string): number {
  if (offset === 'Z' || offset === 'z') return 0;
  const digits = offset.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return offset.startsWith('-') ? -minutes : minutes;
}
