/**
 * A schedule's opening days and hours where real feeds put them, moved to the fields opening rules
 * read (src/schedules/opening-rules.ts), before the field-by-field leniency (leniency.ts calls
 * this first for every schedule, in JSON and in tables). Without it such a schedule is kept but
 * never opens, so `open_now` and `open_at` find nothing on the feed:
 * - a time in a date column (`8:30AM` / `5:30PM` in `valid_from` / `valid_to`, or `dtstart` /
 *   `until`) is the opening and closing time; `24 Hours` there is open all day;
 * - day names in `freq` (`monday`) or `byday` (`Friday,Saturday`), and a `weekday` column (an HSDS
 *   1.1/2.0 field) of words (`Monday - Friday`, `Monday, Wednesday`, `Second Saturday`), are the
 *   iCal `byday` with `freq` WEEKLY (MONTHLY for the nth day of a month);
 * - a schedule without days or hours whose `description` is one run of days and one span of hours
 *   (`Monday - Friday, 9:00 a.m. - 5:00 p.m.`) gets them from it; the description is kept.
 * Each move is a repair noted on the field it read. A value these rules do not understand is left
 * as published, for the field's own leniency and validation. Pure; a schedule that needs none of
 * it pays a few type and character tests and allocates nothing.
 */
import { isAllDay, readClockTime, readDays, readOpeningText } from '../../schedules/schedule-text.ts';
import type { NoteRepair } from './leniency.ts';

type Fields = Record<string, unknown>;
type Note = NoteRepair;

// `2021-01-06`, `2021/01/06`, `6 January 2021`: a date column holding a date starts with a digit
// and is longer than a time; a time there is short (`8:30AM`, `17:30`) or `24 Hours`.
const blank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');
const ICAL_BYDAY =
  /^\s*(?:[+-]?\d{1,2})?(?:MO|TU|WE|TH|FR|SA|SU)(?:\s*,\s*(?:[+-]?\d{1,2})?(?:MO|TU|WE|TH|FR|SA|SU))*\s*$/i;
const FREQS = new Set(['WEEKLY', 'MONTHLY', 'weekly', 'monthly', 'Weekly', 'Monthly']);

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether a value in a date column may be a time: short, and not starting with a year. */
const mayBeTime = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= 12 &&
  !(
    isDigit(value.charCodeAt(0)) &&
    isDigit(value.charCodeAt(1)) &&
    isDigit(value.charCodeAt(2)) &&
    isDigit(value.charCodeAt(3))
  );

/**
 * Whether `byday` is written as iCal codes (`MO,TU`, `2SA`, `-1FR`): capital letters in pairs,
 * digits, signs, commas and spaces only. Character tests, no regular expression: every schedule
 * of every feed pays this.
 */
function isIcalByDay(value: string): boolean {
  let letters = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      letters += 1;
      continue;
    }
    if (letters !== 0 && letters !== 2) return false;
    letters = 0;
    if (!(isDigit(c) || c === 44 || c === 43 || c === 45 || c === 32)) return false;
  }
  return letters === 2;
}

/** The date columns a time may stray into, and where that time belongs. */
const TIME_IN_DATE: readonly [string, 'opens_at' | 'closes_at'][] = [
  ['valid_from', 'opens_at'],
  ['dtstart', 'opens_at'],
  ['valid_to', 'closes_at'],
  ['until', 'closes_at'],
];

/** Whether the schedule may need any of this: the happy path's only cost. */
function mayNeedRepair(fields: Fields): boolean {
  // Field by field rather than a loop over TIME_IN_DATE: every schedule of every feed pays this.
  if (
    mayBeTime(fields.valid_from) ||
    mayBeTime(fields.dtstart) ||
    mayBeTime(fields.valid_to) ||
    mayBeTime(fields.until)
  )
    return true;
  const { freq, byday } = fields;
  if (typeof freq === 'string' && freq !== 'WEEKLY' && freq !== 'MONTHLY' && freq !== '' && !FREQS.has(freq))
    return true;
  if (typeof byday === 'string' && byday !== '' && !isIcalByDay(byday)) return true;
  if (blank(byday) && typeof fields.weekday === 'string') return true;
  return blank(byday) && blank(fields.opens_at) && typeof fields.description === 'string';
}

/** Moves times out of date columns. */
function moveTimes(fields: Fields, note: Note): void {
  for (const [field, target] of TIME_IN_DATE) {
    const value = fields[field];
    if (!mayBeTime(value)) continue;
    if (isAllDay(value)) {
      delete fields[field];
      if (blank(fields.opens_at)) fields.opens_at = '00:00';
      note(
        field,
        value,
        'open all day, in a date field: read as opens_at 00:00 (and no closing time)',
        'changed',
      );
      continue;
    }
    const time = readClockTime(value);
    if (time === undefined) continue;
    const there = fields[target];
    if (!blank(there) && readClockTime(String(there)) !== time) continue; // two times disagree: as published
    delete fields[field];
    fields[target] = time;
    note(field, value, `a time in a date field: read as ${target} ${time}`, 'changed');
  }
}

/** Sets `byday` (and `freq`) from days read in `field`, merging with days already there. */
function setDays(fields: Fields, days: { byday: string; freq: 'WEEKLY' | 'MONTHLY' }): void {
  const current = typeof fields.byday === 'string' && ICAL_BYDAY.test(fields.byday) ? fields.byday : '';
  const merged = [...new Set([...current.split(','), ...days.byday.split(',')].filter(Boolean))];
  fields.byday = merged.join(',');
  const freq = typeof fields.freq === 'string' ? fields.freq.toUpperCase() : undefined;
  if (freq !== 'WEEKLY' && freq !== 'MONTHLY') fields.freq = days.freq;
}

function readDayFields(fields: Fields, note: Note): void {
  const { freq, byday, weekday } = fields;
  if (typeof byday === 'string' && byday.trim() !== '' && !ICAL_BYDAY.test(byday)) {
    const days = readDays(byday);
    if (days) {
      delete fields.byday;
      setDays(fields, days);
      note('byday', byday, `day names: read as byday ${fields.byday}`, 'changed');
    }
  }
  if (typeof freq === 'string' && freq.trim() !== '' && !FREQS.has(freq.trim())) {
    const days = readDays(freq);
    if (days) {
      delete fields.freq;
      setDays(fields, days);
      note(
        'freq',
        freq,
        `day names, not a frequency: read as freq ${fields.freq}, byday ${fields.byday}`,
        'changed',
      );
    }
  }
  if (blank(fields.byday) && typeof weekday === 'string' && weekday.trim() !== '') {
    const days = readDays(weekday);
    if (days) {
      setDays(fields, days);
      note(
        'weekday',
        weekday,
        `read as freq ${fields.freq}, byday ${fields.byday} (the text is kept)`,
        'changed',
      );
    }
  }
}

/** Days and hours from the description, when the schedule has neither. */
function readDescription(fields: Fields, note: Note): void {
  const { description } = fields;
  if (typeof description !== 'string' || !blank(fields.byday) || !blank(fields.opens_at)) return;
  if (!blank(fields.closes_at) || !blank(fields.freq)) return;
  const read = readOpeningText(description);
  if (!read) return;
  Object.assign(fields, read);
  note(
    'description',
    description,
    `read as freq ${read.freq}, byday ${read.byday}, opens_at ${read.opens_at}${read.closes_at ? `, closes_at ${read.closes_at}` : ' (open all day)'} (the description is kept)`,
    'changed',
  );
}

/** Repairs a schedule's days and hours in place (see the module comment); notes each move. */
export function repairScheduleTimes(fields: Fields, note: Note): void {
  if (!mayNeedRepair(fields)) return;
  moveTimes(fields, note);
  readDayFields(fields, note);
  readDescription(fields, note);
}
