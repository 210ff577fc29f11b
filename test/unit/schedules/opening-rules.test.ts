/**
 * Opening rules (src/schedules/opening-rules.ts): what one schedule indexes, and, for many
 * generated schedules, that the rules open on exactly the dates the rrule library expands them to,
 * over a year, at every hour boundary that matters.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ScheduleFull } from '../../../src/hsds/index.ts';
import { dayNumber, parseInstant, zoneOffsetMinutes } from '../../../src/schedules/calendar.ts';
import { openAt, toOpeningRule, toOpeningRules } from '../../../src/schedules/opening-rules.ts';

const { RRule } = createRequire(import.meta.url)('rrule') as typeof import('rrule');

const schedule = (fields: Partial<ScheduleFull>) => ({ id: 'a', ...fields }) as ScheduleFull;
const at = (text: string, zone = 'UTC') => parseInstant(text, zone) as number;

describe('toOpeningRule', () => {
  it('indexes a weekly schedule as its days, minutes and unbounded dates', () => {
    expect(
      toOpeningRule(schedule({ freq: 'WEEKLY', byday: 'MO,we', opens_at: '09:00', closes_at: '17:30' })),
    ).toMatchInlineSnapshot(`
      {
        "days": [
          "W:MO",
          "W:WE",
        ],
        "end": 1050,
        "first_day": -1000000,
        "last_day": 10000000,
        "phase": "1",
        "start": 540,
        "zoned": true,
      }
    `);
  });

  it('counts minutes from UTC midnight when the schedule states its offset', () => {
    const rule = toOpeningRule(schedule({ byday: 'MO', opens_at: '09:00-05:00', closes_at: '10:00-05:00' }));
    expect(rule).toMatchObject({ start: 14 * 60, end: 15 * 60, zoned: false });
    expect(
      toOpeningRule(schedule({ byday: 'MO', opens_at: '09:00', closes_at: '10:00', timezone: 5.5 })),
    ).toMatchObject({ start: 9 * 60 - 330, end: 10 * 60 - 330, zoned: false });
  });

  it('runs past midnight when closes_at is not after opens_at', () => {
    expect(toOpeningRule(schedule({ byday: 'FR', opens_at: '20:00', closes_at: '08:00' }))).toMatchObject({
      start: 1200,
      end: 1440 + 480,
    });
  });

  it('reads monthly ordinals and month days, interval phases, count and bounds', () => {
    expect(
      toOpeningRule(
        schedule({
          freq: 'MONTHLY',
          byday: '1MO,-1FR',
          bymonthday: '15',
          interval: 3,
          dtstart: '2026-01-05',
          count: 4,
          valid_to: '2027-12-31',
          opens_at: '10:00',
          closes_at: '12:00',
        }),
      ),
    ).toMatchObject({
      days: ['M:1MO', 'M:-1FR', 'D:15'],
      phase: `M3:${(56 * 12) % 3}`,
      first_day: dayNumber('2026-01-05'),
    });
    // The 4th of every other Monday from 2026-01-05: 2026-02-16.
    expect(
      toOpeningRule(
        schedule({
          freq: 'WEEKLY',
          byday: 'MO',
          interval: 2,
          dtstart: '2026-01-05',
          count: 4,
          opens_at: '10:00',
        }),
      )?.last_day,
    ).toBe(dayNumber('2026-02-16'));
  });

  it('says nothing for a schedule with no day or date, or an unreadable time', () => {
    expect(toOpeningRule(schedule({ description: 'Ring first' }))).toBeUndefined();
    expect(toOpeningRule(schedule({ byday: 'MO', opens_at: 'mornings' }))).toBeUndefined();
    expect(toOpeningRule(schedule({ byday: 'MO', opens_at: '9am', closes_at: '5:30pm' }))).toMatchObject({
      start: 540,
      end: 1050,
    });
  });
});

describe('a schedule that names days but no times', () => {
  const monday = at('2026-03-02T03:00:00Z');
  it('has unknown hours: it is not open at any time of those days', () => {
    expect(toOpeningRule(schedule({ freq: 'WEEKLY', byday: 'MO' }))).toBeUndefined();
    expect(toOpeningRule(schedule({ byday: 'MO,TU', opens_at: ' ', closes_at: '' }))).toBeUndefined();
    expect(
      openAt(toOpeningRules([schedule({ byday: 'MO', description: 'Advice sessions' })]), monday, 'UTC'),
    ).toBe(false);
  });

  it('is open all day when its description or notes say 24 hours', () => {
    for (const fields of [{ description: 'Open 24 hours' }, { notes: 'Helpline answers 24/7' }]) {
      const rules = toOpeningRules([schedule({ byday: 'MO', ...fields })]);
      expect(rules).toHaveLength(1);
      expect(openAt(rules, monday, 'UTC')).toBe(true);
    }
  });

  it('still reads one time given alone: from it to the end of the day, or from midnight to it', () => {
    expect(toOpeningRule(schedule({ byday: 'MO', opens_at: '00:00' }))).toMatchObject({
      start: 0,
      end: 1440,
    });
    expect(toOpeningRule(schedule({ byday: 'MO', closes_at: '12:00' }))).toMatchObject({
      start: 0,
      end: 720,
    });
  });
});

describe('parseInstant', () => {
  it('reads an offset, else the zone, across a change of summer time', () => {
    expect(new Date(at('2026-03-02T10:00:00-05:00')).toISOString()).toBe('2026-03-02T15:00:00.000Z');
    expect(new Date(at('2026-03-02T10:00', 'America/New_York')).toISOString()).toBe(
      '2026-03-02T15:00:00.000Z',
    );
    expect(new Date(at('2026-03-09T10:00', 'America/New_York')).toISOString()).toBe(
      '2026-03-09T14:00:00.000Z',
    );
    expect(new Date(at('2026-07-01', 'Europe/London')).toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect(zoneOffsetMinutes('Asia/Kolkata', at('2026-01-01T00:00:00Z'))).toBe(330);
    expect(parseInstant('2026-02-29T10:00', 'UTC')).toBeUndefined();
  });
});

// A small deterministic generator: the same schedules every run.
function* random(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    yield state / 2 ** 31;
  }
}

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

describe('opening rules agree with the rrule library', () => {
  const rng = random(29);
  const pick = <T>(list: readonly T[]): T =>
    list[Math.floor((rng.next().value as number) * list.length)] as T;
  const from = Date.UTC(2026, 0, 1);
  const to = Date.UTC(2026, 11, 31);

  for (let i = 0; i < 30; i++) {
    const freq = pick(['WEEKLY', 'MONTHLY'] as const);
    const days = [pick(WEEKDAYS), pick(WEEKDAYS)];
    const byOrdinal = freq === 'MONTHLY' && pick([true, false]);
    const ordinals = days.map((d) => ({ n: pick([1, 2, 3, 4, -1, -2]), d }));
    const monthDays = [pick([1, 5, 15, 28, 29, 30, 31, -1, -3])];
    const useMonthDays = freq === 'MONTHLY' && !byOrdinal;
    const interval = pick([1, 1, 2, 3]);
    const dtstart = pick(['2025-12-29', '2026-01-07', '2026-02-13']);
    const end = pick(['none', 'count', 'until'] as const);
    const count = pick([1, 3, 10]);
    const until = pick(['2026-03-31', '2026-09-15']);
    const opens = pick(['09:00', '18:00', '22:00']);
    const closes = pick(['12:00', '02:00', '23:30']);
    const fields: Partial<ScheduleFull> = {
      freq,
      interval,
      dtstart,
      opens_at: opens,
      closes_at: closes,
      ...(useMonthDays
        ? { bymonthday: monthDays.join(',') }
        : { byday: byOrdinal ? ordinals.map((o) => `${o.n}${o.d}`).join(',') : days.join(',') }),
      ...(end === 'count' ? { count } : end === 'until' ? { until } : {}),
    };
    it(`${JSON.stringify(fields)}`, () => {
      const rrule = new RRule({
        freq: freq === 'WEEKLY' ? RRule.WEEKLY : RRule.MONTHLY,
        interval,
        dtstart: new Date(`${dtstart}T00:00:00Z`),
        ...(useMonthDays
          ? { bymonthday: monthDays }
          : {
              byweekday: byOrdinal
                ? ordinals.map((o) => RRule[o.d].nth(o.n))
                : [...new Set(days)].map((d) => RRule[d]),
            }),
        ...(end === 'count' ? { count } : end === 'until' ? { until: new Date(`${until}T23:59:59Z`) } : {}),
      });
      const dates = new Set(
        rrule.between(new Date(from), new Date(to), true).map((d) => d.toISOString().slice(0, 10)),
      );
      const rule = toOpeningRule(schedule(fields));
      expect(rule).toBeDefined();
      const rules = rule ? [rule] : [];
      const [oh, om] = opens.split(':').map(Number) as [number, number];
      const [ch, cm] = closes.split(':').map(Number) as [number, number];
      const overnight = ch * 60 + cm <= oh * 60 + om;
      for (let day = from; day <= to; day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        const open = dates.has(date);
        const opening = day + (oh * 60 + om) * 60_000;
        const closing = day + (ch * 60 + cm + (overnight ? 1440 : 0)) * 60_000;
        expect({ date, open: openAt(rules, opening, 'UTC') }).toEqual({ date, open });
        expect({ date, justBefore: openAt(rules, closing - 60_000, 'UTC') }).toEqual({
          date,
          justBefore: open,
        });
      }
    });
  }
});
