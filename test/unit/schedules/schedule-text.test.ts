import { describe, expect, it } from 'vitest';
import {
  isAllDay,
  normaliseTime,
  readClockTime,
  readDayHours,
  readDays,
  readOpeningText,
} from '../../../src/schedules/schedule-text.ts';

describe('readDays: days as publishers write them', () => {
  it.each([
    ['Monday - Friday', 'MO,TU,WE,TH,FR'],
    ['Monday-Friday', 'MO,TU,WE,TH,FR'],
    ['Mon-Fri', 'MO,TU,WE,TH,FR'],
    ['Monday, Wednesday, Friday', 'MO,WE,FR'],
    ['Tuesday & Thursday', 'TU,TH'],
    ['Tuesday and Thursday (Closed from 12:30PM-2:00PM)', 'TU,TH'],
    ['Mon - Tue & Thur - Fri', 'MO,TU,TH,FR'],
    ['Monday, Wed-Thur', 'MO,WE,TH'],
    ['Saturday - Sunday', 'SA,SU'],
    ['Sunday - Saturday', 'MO,TU,WE,TH,FR,SA,SU'],
    ['monday', 'MO'],
    ['Friday,Saturday', 'FR,SA'],
    ['Weekdays', 'MO,TU,WE,TH,FR'],
    ['7 days a week', 'MO,TU,WE,TH,FR,SA,SU'],
  ])('%s → WEEKLY %s', (text, byday) => {
    expect(readDays(text)).toEqual({ byday, freq: 'WEEKLY' });
  });

  it.each([
    ['Second Saturday', '2SA'],
    ['2nd & 4th Wednesday', '2WE,4WE'],
    ['Last Thursday of each month', '-1TH'],
    ['First, second, and fourth Tuesday of the month', '1TU,2TU,4TU'],
  ])('%s → MONTHLY %s', (text, byday) => {
    expect(readDays(text)).toEqual({ byday, freq: 'MONTHLY' });
  });

  it.each([
    '9:00AM',
    'Nights',
    'By appointment',
    'Following church service',
    '',
    'Monday -',
    'Monday and 2nd Saturday',
  ])('leaves %j unread rather than guess', (text) => {
    expect(readDays(text)).toBeUndefined();
  });
});

describe('normaliseTime', () => {
  it('reads times people write as HH:MM, and nothing it would have to guess', () => {
    const cases: [string, string | undefined][] = [
      ['9:00am', '09:00'],
      ['9am', '09:00'],
      ['9.30 p.m.', '21:30'],
      ['12pm', '12:00'],
      ['12:15am', '00:15'],
      ['9:00', '09:00'],
      ['17.45', '17:45'],
      ['noon', '12:00'],
      ['13pm', undefined],
      ['24:00', undefined],
      ['by appointment', undefined],
    ];
    for (const [input, expected] of cases) expect(normaliseTime(input), input).toBe(expected);
  });
});

describe('readClockTime', () => {
  it.each([
    ['8:30AM', '08:30'],
    ['9:00am', '09:00'],
    ['5:30PM', '17:30'],
    ['12:00PM', '12:00'],
    ['12:00AM', '00:00'],
    ['9 a.m.', '09:00'],
    ['5pm', '17:00'],
    ['17:30', '17:30'],
    ['noon', '12:00'],
  ])('%s → %s', (text, time) => {
    expect(readClockTime(text)).toBe(time);
  });

  it.each(['2021-01-06', '06/01/2021', '13:00pm', '9', 'Nights'])('%s is no time', (text) => {
    expect(readClockTime(text)).toBeUndefined();
  });

  it('tells open all day', () => {
    expect(isAllDay('24 Hours')).toBe(true);
    expect(isAllDay('24/7')).toBe(true);
    expect(isAllDay('9:00AM')).toBe(false);
  });
});

describe('readOpeningText: a description of one run of days and one span of hours', () => {
  it.each([
    'Monday - Friday, 9:00 a.m. - 5:00 p.m.',
    '9am-5pm Mon-Fri',
    'Mon-Fri: 09:00-17:00',
    '9:00am-5:00pm, Mon-Fri',
  ])('%s', (text) => {
    expect(readOpeningText(text)).toEqual({
      byday: 'MO,TU,WE,TH,FR',
      freq: 'WEEKLY',
      opens_at: '09:00',
      closes_at: '17:00',
    });
  });

  it('reads open all day on the days named (Brevard)', () => {
    const always = { byday: 'MO,TU,WE,TH,FR,SA,SU', freq: 'WEEKLY', opens_at: '00:00' };
    expect(readOpeningText('24 hours a day, seven days a week')).toEqual(always);
    expect(readOpeningText('Seven days a week 24 hours')).toEqual(always);
    // The line the hours belong to changes no day or time.
    expect(readOpeningText('Seven days a week 24 hours Helpline')).toEqual(always);
    expect(readOpeningText('Seven days a week 24 hour hotline')).toEqual(always);
    expect(readOpeningText('24 hours')).toBeUndefined();
  });

  it.each(['Call for hours', '9-5', '9am-5pm', 'Mon-Fri 9am-12pm and 1pm-5pm', 'Mon 9am-5pm, Sat 10am-2pm'])(
    'leaves %j for people to read',
    (text) => {
      expect(readOpeningText(text)).toBeUndefined();
    },
  );
});

describe('readOpeningText: labels and several parts (Brevard)', () => {
  const office = { byday: 'MO,TU,WE,TH,FR', freq: 'WEEKLY', opens_at: '08:30', closes_at: '16:00' };

  it.each([
    'Office: Monday - Friday, 8:30am-4pm',
    'Office: Monday - Friday, 8:30 a.m. - 4:00 p.m.',
    'Hours: Mon-Fri 8:30am-4pm',
  ])('reads past the label of %j', (text) => {
    expect(readOpeningText(text)).toEqual(office);
  });

  it('reads `days; hours` as one run of days and one span', () => {
    expect(readOpeningText('Monday - Friday; 8:00 a.m. - 5:00 p.m.')).toEqual({
      ...office,
      opens_at: '08:00',
      closes_at: '17:00',
    });
  });

  it('takes the widest reading when one part holds the others (the hotline answers all day)', () => {
    expect(
      readOpeningText('Office: Monday - Friday 8:00 a.m. - 5:00 p.m.; Seven days a week 24 hour hotline'),
    ).toEqual({ byday: 'MO,TU,WE,TH,FR,SA,SU', freq: 'WEEKLY', opens_at: '00:00' });
    expect(readOpeningText('Monday 9am-5pm; Thursday 9am-5pm')).toEqual({
      byday: 'MO,TH',
      freq: 'WEEKLY',
      opens_at: '09:00',
      closes_at: '17:00',
    });
    expect(readOpeningText('Monday - Friday 8am-6pm; Wednesday 9am-5pm')).toEqual({
      byday: 'MO,TU,WE,TH,FR',
      freq: 'WEEKLY',
      opens_at: '08:00',
      closes_at: '18:00',
    });
  });

  it.each([
    'Closed: Monday 9am-5pm',
    'Office and Home: By Appointment',
    'Monday 9am-5pm; Saturday 10am-2pm',
    'Monday 9am-12pm; Monday 1pm-5pm',
    'Monday 9am-5pm; by appointment',
    'Mon-Fri: 09:00-17:00; Sat: closed',
  ])('leaves %j for people to read', (text) => {
    expect(readOpeningText(text)).toBeUndefined();
  });
});

describe('readDayHours: the spans of hours a text gives one weekday', () => {
  const lunch = [
    { opens_at: '09:00', closes_at: '12:00' },
    { opens_at: '13:00', closes_at: '16:00' },
  ];
  it.each([
    ['9:00am-12:00pm; 1:00pm-4:00pm, Mon-Fri', 'MO', lunch],
    ['9:00am-12:00pm & 1:00pm-4:00pm, Mon-Fri', 'FR', lunch],
    ['9:00am-12:00pm / 1:00pm-4:00pm, Mon, Tue', 'TU', lunch],
    ['9:00am-12:00pm AND 1:00pm-4:00pm, Wed', 'WE', lunch],
    ['9:15am– 10:30am, Mon, Wed', 'WE', [{ opens_at: '09:15', closes_at: '10:30' }]],
    ['8:30am-5:00pm, Mon-Fri', 'TH', [{ opens_at: '08:30', closes_at: '17:00' }]],
    // A label line, and lines for other days: the row's own weekday picks its line.
    [
      'Clinic:\\n9:00am-11:30am & 1:00pm-3:30pm,Tue-Fri\\n9:00am-3:30pm, Sat',
      'TU',
      [
        { opens_at: '09:00', closes_at: '11:30' },
        { opens_at: '13:00', closes_at: '15:30' },
      ],
    ],
    [
      'Clinic:\n9:00am-11:30am & 1:00pm-3:30pm,Tue-Fri\n9:00am-3:30pm, Sat',
      'SA',
      [{ opens_at: '09:00', closes_at: '15:30' }],
    ],
    [
      '9:00am-1:00pm / 2:00pm-6:00pm, Tue;\\n8:30am-12:30pm, Sat',
      'SA',
      [{ opens_at: '08:30', closes_at: '12:30' }],
    ],
    // Days named, this one not among them: nothing to read for it.
    ['9:00am-12:00pm; 1:00pm-4:00pm, Mon-Fri', 'SU', []],
  ])('%j on %s', (text, day, spans) => {
    expect(readDayHours(text, day as 'MO')).toEqual(spans);
  });

  it.each([
    '10:00am- -3:00pm, Mon-Fri', // a stray dash
    '2:00pm 6:00pm, Mon-Fri', // no dash: a span or two times?
    'Dismissal Bell - 6:00pm, Mon-Fri',
    '9:00am-12:00pm; 1:00pm-4:00pm', // no days
    '9:00am, Mon, Wed, Fri (by appointment only)',
    // Two labelled sets of hours on the same day: whose hours?
    'Administrative Hours:\\n8:00am-5:00pm Mon-Fri\\n\\nVisitation Hours:\\n9:00am-3:00pm, Mon-Fri',
    '9:00am-12:00pm, Mon-Fri; closed holidays',
  ])('leaves %j unread', (text) => {
    expect(readDayHours(text, 'MO')).toBeUndefined();
  });
});
