/**
 * When a place is next open (src/schedules/next-opening.ts), by the rules `open_at` tests: weekly,
 * monthly by weekday ordinal, past midnight, a stated offset, DIRECTORY_TIMEZONE in summer time,
 * `count`; and agreement with openAt at every half hour of a fortnight.
 */
import { describe, expect, it } from 'vitest';
import { nextOpening as nextOf, openingCalendar } from '../../../src/schedules/next-opening.ts';
import type { OpeningRule } from '../../../src/schedules/opening-rules.ts';
import { openAt, toOpeningRules } from '../../../src/schedules/opening-rules.ts';

const rules = (...schedules: Record<string, unknown>[]) =>
  toOpeningRules(schedules.map((s, i) => ({ id: `s${i}`, ...s })) as never);
const at = (iso: string) => Date.parse(iso);
const nextOpening = (r: OpeningRule[], instant: number, zone: string) =>
  nextOf(r, openingCalendar(instant, zone));

describe('nextOpening', () => {
  const tuesdayEvenings = rules({ freq: 'WEEKLY', byday: 'TU', opens_at: '18:00', closes_at: '20:00' });

  it('says when a weekly schedule next opens, and until when it is open', () => {
    expect(nextOpening(tuesdayEvenings, at('2026-03-09T10:00:00Z'), 'UTC')).toEqual({
      open_now: false,
      opens_at: '2026-03-10T18:00:00.000Z',
    });
    expect(nextOpening(tuesdayEvenings, at('2026-03-10T19:00:00Z'), 'UTC')).toEqual({
      open_now: true,
      until: '2026-03-10T20:00:00.000Z',
    });
    // Closed at the stroke of closing: the next Tuesday.
    expect(nextOpening(tuesdayEvenings, at('2026-03-10T20:00:00Z'), 'UTC')).toMatchObject({
      opens_at: '2026-03-17T18:00:00.000Z',
    });
  });

  it('reads monthly rules by weekday ordinal and by month day', () => {
    const lastFriday = rules({ freq: 'MONTHLY', byday: '-1FR', opens_at: '10:00', closes_at: '12:00' });
    expect(nextOpening(lastFriday, at('2026-03-01T00:00:00Z'), 'UTC')).toMatchObject({
      opens_at: '2026-03-27T10:00:00.000Z',
    });
    const fifteenth = rules({ freq: 'MONTHLY', bymonthday: '15', opens_at: '09:00', closes_at: '10:00' });
    expect(nextOpening(fifteenth, at('2026-03-16T00:00:00Z'), 'UTC')).toMatchObject({
      opens_at: '2026-04-15T09:00:00.000Z',
    });
  });

  it('keeps a night shelter open past midnight, and joins occurrences that follow on', () => {
    const nightly = rules({
      freq: 'WEEKLY',
      byday: 'MO,TU,WE,TH,FR,SA,SU',
      opens_at: '20:00',
      closes_at: '08:00',
    });
    expect(nextOpening(nightly, at('2026-03-10T02:00:00Z'), 'UTC')).toEqual({
      open_now: true,
      until: '2026-03-10T08:00:00.000Z',
    });
    const allDay = rules(
      { freq: 'WEEKLY', byday: 'MO', opens_at: '00:00', closes_at: '24:00' },
      { freq: 'WEEKLY', byday: 'TU', opens_at: '00:00', closes_at: '12:00' },
    );
    expect(nextOpening(allDay, at('2026-03-09T10:00:00Z'), 'UTC')).toEqual({
      open_now: true,
      until: '2026-03-10T12:00:00.000Z',
    });
  });

  it('uses an offset written in opens_at, else DIRECTORY_TIMEZONE with its summer time', () => {
    const newYork = rules({ freq: 'WEEKLY', byday: 'MO', opens_at: '09:00-05:00', closes_at: '17:00-05:00' });
    expect(nextOpening(newYork, at('2026-03-09T12:00:00Z'), 'Europe/London')).toMatchObject({
      opens_at: '2026-03-09T14:00:00.000Z',
    });
    const london = rules({ freq: 'WEEKLY', byday: 'MO', opens_at: '09:00', closes_at: '17:00' });
    expect(nextOpening(london, at('2026-06-01T07:00:00Z'), 'Europe/London')).toMatchObject({
      opens_at: '2026-06-01T08:00:00.000Z',
    });
  });

  it('ends with count and valid_to, and says nothing of a schedule that never opens again', () => {
    const twice = rules({
      freq: 'WEEKLY',
      byday: 'TU',
      dtstart: '2026-03-03',
      count: 2,
      opens_at: '10:00',
      closes_at: '11:00',
    });
    expect(nextOpening(twice, at('2026-03-04T00:00:00Z'), 'UTC')).toMatchObject({
      opens_at: '2026-03-10T10:00:00.000Z',
    });
    expect(nextOpening(twice, at('2026-03-11T00:00:00Z'), 'UTC')).toBeUndefined();
    expect(nextOpening([], at('2026-03-11T00:00:00Z'), 'UTC')).toBeUndefined();
  });

  it('agrees with openAt at every half hour of a fortnight', () => {
    const mixed = rules(
      { freq: 'WEEKLY', byday: 'MO,WE', opens_at: '09:30', closes_at: '13:00' },
      {
        freq: 'WEEKLY',
        interval: 2,
        dtstart: '2026-03-06',
        byday: 'FR',
        opens_at: '22:00',
        closes_at: '02:00',
      },
      { freq: 'MONTHLY', byday: '2TH', opens_at: '18:00+01:00', closes_at: '20:00+01:00' },
    );
    for (let t = at('2026-03-01T00:00:00Z'); t < at('2026-03-15T00:00:00Z'); t += 30 * 60_000) {
      const next = nextOpening(mixed, t, 'Europe/London');
      expect(next?.open_now ?? false, new Date(t).toISOString()).toBe(openAt(mixed, t, 'Europe/London'));
      if (next && !next.open_now)
        expect(openAt(mixed, Date.parse(next.opens_at), 'Europe/London')).toBe(true);
      if (next?.open_now) expect(openAt(mixed, Date.parse(next.until), 'Europe/London')).toBe(false);
    }
    // 672 instants, each worked out twice in a real time zone: about 2-5 s on a shared two-core
    // machine, so vitest's 5 s default timed it out under load. What it checks is agreement, not speed.
  }, 60_000);
});
