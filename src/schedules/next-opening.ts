/**
 * When a place is next open, by the rules `open_at` tests (opening-rules.ts), so that a page can
 * say "Open now until 14:00" or "Opens Tue 18:00" of monthly, fortnightly and one-off schedules as
 * well as weekly ones, and agree with `open_now`. Pure: rules, an instant and DIRECTORY_TIMEZONE
 * in; the next change out.
 *
 * Each rule's occurrences are laid out day by day from two days before the instant (an occurrence
 * past midnight, or of a schedule far east of UTC, may still run) to HORIZON_DAYS after it; a
 * place open now stays open until the last of the occurrences that follow on without a gap.
 */
import { localAt, zoneOffsetMinutes } from './calendar.ts';
import { dayTokens, type OpeningRule, phaseTokens } from './opening-rules.ts';

/** Far enough ahead for a monthly rule (every day of two months is looked at). */
export const HORIZON_DAYS = 62;

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;

export type NextOpening =
  /** Open at the instant, until `until` (an RFC 3339 instant, UTC). */
  | { open_now: true; until: string }
  /** Closed at the instant; opens next at `opens_at`. */
  | { open_now: false; opens_at: string };

type Occurrence = { start: number; end: number };

/** The days an instant's next opening is looked for on: computed once for a page of records. */
export type OpeningCalendar = {
  instant: number;
  days: {
    day: number;
    /** The day's date and phase tokens, as the engine's opening query tests them (opening-rules.ts). */
    tokens: ReadonlySet<string>;
    phases: ReadonlySet<string>;
    midnight: number;
    zonedMidnight: number;
  }[];
};

/** The calendar of the days around an instant, from two days before it to HORIZON_DAYS after. */
export function openingCalendar(instant: number, directoryZone: string): OpeningCalendar {
  const today = localAt(instant, 0).day;
  const days: OpeningCalendar['days'] = [];
  for (let day = today - 2; day <= today + HORIZON_DAYS; day++) {
    const midnight = day * MS_PER_DAY;
    days.push({
      day,
      tokens: new Set(dayTokens(day)),
      phases: new Set(phaseTokens(day)),
      midnight,
      // Local midnight in DIRECTORY_TIMEZONE, by its offset at noon that day.
      zonedMidnight: midnight - zoneOffsetMinutes(directoryZone, midnight + MS_PER_DAY / 2) * MS_PER_MINUTE,
    });
  }
  return { instant, days };
}

/** Every occurrence of the rules on the calendar's days, as instants, earliest first. */
function occurrences(rules: readonly OpeningRule[], calendar: OpeningCalendar): Occurrence[] {
  const out: Occurrence[] = [];
  for (const { day, tokens, phases, midnight, zonedMidnight } of calendar.days) {
    for (const rule of rules) {
      if (day < rule.first_day || day > rule.last_day) continue;
      if (!rule.days.some((token) => tokens.has(token)) || !phases.has(rule.phase)) continue;
      const base = rule.zoned ? zonedMidnight : midnight;
      out.push({ start: base + rule.start * MS_PER_MINUTE, end: base + rule.end * MS_PER_MINUTE });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** When the rules next open (or close, when open at the calendar's instant); undefined when not within it. */
export function nextOpening(
  rules: readonly OpeningRule[],
  calendar: OpeningCalendar,
): NextOpening | undefined {
  if (rules.length === 0) return undefined;
  const { instant } = calendar;
  const all = occurrences(rules, calendar);
  const covering = all.filter((o) => o.start <= instant && instant < o.end);
  if (covering.length > 0) {
    let until = Math.max(...covering.map((o) => o.end));
    for (const o of all) if (o.start <= until && o.end > until) until = o.end;
    return { open_now: true, until: new Date(until).toISOString() };
  }
  const next = all.find((o) => o.start > instant);
  return next ? { open_now: false, opens_at: new Date(next.start).toISOString() } : undefined;
}
