/**
 * The explore page's next opening of a result (format.js describeNextOpening): the API's
 * `next_opening` as a person reads it, in the browser's local time.
 */
import { describe, expect, it } from 'vitest';
import { describeNextOpening } from '../../../src/explore/format.js';

// Monday 2 March 2026, local time.
const at = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute);
const opens = (date: Date) => ({ open_now: false, opens_at: date.toISOString() });

describe('describeNextOpening', () => {
  it('says open now until the closing time', () => {
    expect(describeNextOpening({ open_now: true, until: at(2, 14).toISOString() }, at(2, 11))).toBe(
      'Open now until 14:00',
    );
  });

  it('says today, a weekday within the week, or a date beyond', () => {
    expect(describeNextOpening(opens(at(2, 10)), at(2, 9))).toBe('Opens today 10:00');
    expect(describeNextOpening(opens(at(3, 18)), at(2, 15))).toBe('Opens Tue 18:00');
    expect(describeNextOpening(opens(at(8, 9, 30)), at(2, 15))).toBe('Opens Sun 09:30');
    expect(describeNextOpening(opens(at(27, 10)), at(2, 15))).toBe('Opens 27 Mar 10:00');
  });

  it('says nothing without a next opening, or of one it cannot read', () => {
    expect(describeNextOpening(undefined, at(2, 9))).toBeUndefined();
    expect(describeNextOpening({ open_now: false, opens_at: 'soon' }, at(2, 9))).toBeUndefined();
  });
});
