import { describe, expect, it } from 'vitest';
import type { ScheduleFull } from '../../../../src/hsds/index.ts';
import { applyLeniency } from '../../../../src/ingest/repairs/leniency.ts';
import { toOpeningRule } from '../../../../src/schedules/opening-rules.ts';

const ID = '0b6c3f5e-0000-4000-8000-000000000001';
const noKeys: ReadonlySet<string> = new Set();

/** A schedule row (tabular) or record (JSON) through the leniency, as import repairs it. */
function repair(fields: Record<string, unknown>, json = false) {
  const record = { id: ID, ...fields };
  const repairs = applyLeniency('schedule', record, json, noKeys) ?? [];
  return { record, repairs: repairs.map((r) => `${r.field}: ${r.action}`) };
}

describe('a schedule whose days and hours sit where opening rules do not read them', () => {
  it('reads times in valid_from / valid_to as opening and closing times (DC)', () => {
    const { record, repairs } = repair({ valid_from: '8:30AM', valid_to: '5:30PM' });
    expect(record).toEqual({ id: ID, opens_at: '08:30', closes_at: '17:30' });
    expect(repairs).toEqual([
      'valid_from: a time in a date field: read as opens_at 08:30',
      'valid_to: a time in a date field: read as closes_at 17:30',
    ]);
  });

  it('reads times in dtstart / until, and a weekday range, as a weekly opening', () => {
    const { record, repairs } = repair({ weekday: 'Monday - Friday', dtstart: '9:00AM', until: '5:00PM' });
    expect(record).toEqual({
      id: ID,
      weekday: 'Monday - Friday',
      freq: 'WEEKLY',
      byday: 'MO,TU,WE,TH,FR',
      opens_at: '09:00',
      closes_at: '17:00',
    });
    expect(repairs).toContain('weekday: read as freq WEEKLY, byday MO,TU,WE,TH,FR (the text is kept)');
    // The repaired schedule opens on weekdays from 09:00 to 17:00.
    expect(toOpeningRule(record as ScheduleFull)).toMatchObject({
      days: ['W:MO', 'W:TU', 'W:WE', 'W:TH', 'W:FR'],
      start: 540,
      end: 1020,
    });
  });

  it('reads a day name in freq and day names in byday', () => {
    expect(repair({ freq: 'monday' }).record).toEqual({ id: ID, freq: 'WEEKLY', byday: 'MO' });
    expect(repair({ freq: 'Saturday', valid_from: '12:30PM', valid_to: '2:15PM' }).record).toEqual({
      id: ID,
      freq: 'WEEKLY',
      byday: 'SA',
      opens_at: '12:30',
      closes_at: '14:15',
    });
    expect(repair({ byday: 'Friday,Saturday' }).record).toEqual({ id: ID, byday: 'FR,SA', freq: 'WEEKLY' });
  });

  it('reads 24 Hours as open from midnight, and the nth day of a month as MONTHLY', () => {
    expect(repair({ valid_from: '24 Hours' }).record).toEqual({ id: ID, opens_at: '00:00' });
    expect(repair({ weekday: 'Second Saturday' }).record).toMatchObject({ freq: 'MONTHLY', byday: '2SA' });
  });

  it('reads a description of days and hours when nothing else says them, keeping it (JSON)', () => {
    const description = 'Monday - Friday, 9:00 a.m. - 5:00 p.m.';
    const { record } = repair({ description }, true);
    expect(record).toEqual({
      id: ID,
      description,
      freq: 'WEEKLY',
      byday: 'MO,TU,WE,TH,FR',
      opens_at: '09:00',
      closes_at: '17:00',
    });
  });

  it('reads a description of open all day as open from midnight to the end of each day named', () => {
    const description = '24 hours a day, seven days a week';
    const { record, repairs } = repair({ description }, true);
    expect(record).toEqual({
      id: ID,
      description,
      freq: 'WEEKLY',
      byday: 'MO,TU,WE,TH,FR,SA,SU',
      opens_at: '00:00',
    });
    expect(repairs).toEqual([
      'description: read as freq WEEKLY, byday MO,TU,WE,TH,FR,SA,SU, opens_at 00:00 (open all day) (the description is kept)',
    ]);
  });

  it('leaves what it cannot read, and what is already right, as published', () => {
    expect(repair({ valid_from: 'By appointment' }).record).toEqual({ id: ID, valid_from: 'By appointment' });
    expect(repair({ description: 'Call for hours' }, true).record).toEqual({
      id: ID,
      description: 'Call for hours',
    });
    const valid = {
      valid_from: '2024-01-01',
      freq: 'WEEKLY',
      byday: 'MO,TU',
      opens_at: '09:00',
      closes_at: '17:00',
    };
    expect(repair(valid)).toEqual({ record: { id: ID, ...valid }, repairs: [] });
    // A description beside structured days is the publisher's remark, not read again.
    expect(repair({ byday: 'MO', description: 'Tuesday 9am-5pm' }, true).record).toEqual({
      id: ID,
      byday: 'MO',
      description: 'Tuesday 9am-5pm',
    });
  });

  it('keeps a time that disagrees with the opening time already given', () => {
    expect(repair({ opens_at: '10:00', valid_from: '8:30AM' }).record).toEqual({
      id: ID,
      opens_at: '10:00',
      valid_from: '8:30AM',
    });
  });
});
