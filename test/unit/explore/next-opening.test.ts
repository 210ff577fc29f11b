/**
 * The explore page's next opening of a result (format.js nextOpening), in the browser's local
 * time: open now until its closing, or the next day and time it opens.
 */
import { describe, expect, it } from 'vitest';
import { nextOpening } from '../../../src/explore/format.js';

const weekly = (byday: string, opens_at: string, closes_at: string, extra = {}) => ({
  freq: 'WEEKLY',
  byday,
  opens_at,
  closes_at,
  ...extra,
});
// Monday 2 March 2026, local time.
const at = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute);

describe('nextOpening', () => {
  it('says open now until the closing time, or when it opens next', () => {
    const schedules = [weekly('MO,WE', '10:00', '14:00'), weekly('TU', '18:00', '20:00')];
    expect(nextOpening(schedules, at(2, 11))).toBe('Open now until 14:00');
    expect(nextOpening(schedules, at(2, 9))).toBe('Opens today 10:00');
    expect(nextOpening(schedules, at(2, 15))).toBe('Opens Tue 18:00');
    expect(nextOpening(schedules, at(4, 15))).toBe('Opens Mon 10:00');
  });

  it('reads hours past midnight, and leaves out what is no longer valid or not weekly', () => {
    expect(nextOpening([weekly('SU', '20:00', '08:00')], at(2, 7))).toBe('Open now until 08:00');
    expect(
      nextOpening([weekly('MO', '10:00', '12:00', { valid_to: '2026-03-01' })], at(2, 9)),
    ).toBeUndefined();
    expect(
      nextOpening([{ freq: 'MONTHLY', byday: '1MO', opens_at: '10:00', closes_at: '12:00' }], at(2, 9)),
    ).toBeUndefined();
    expect(nextOpening([], at(2, 9))).toBeUndefined();
  });
});
