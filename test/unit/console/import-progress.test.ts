/** An import job's progress bar: reading fills 80%, publishing the rest, done is 100%. */
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../../src/console/index.ts';

const counts = { items: 0, records: 0, rejected: 0, services: 0, total_services: 0 };

describe('progressOf', () => {
  it('fills reading to 80% by the known total, with a rate and the time left', () => {
    const p = progressOf({ ...counts, phase: 'reading', items: 250, total_items: 500 }, 5_000);
    expect(p).toMatchObject({ percent: 40, rate_per_second: 50, seconds_left: 5 });
  });

  it('does not guess a percent or a time left without a total', () => {
    const p = progressOf({ ...counts, phase: 'reading', items: 250 }, 5_000);
    expect(p.percent).toBe(0);
    expect(p.seconds_left).toBeUndefined();
  });

  it('fills publishing from 80% to 100%, and done is 100%', () => {
    expect(progressOf({ ...counts, phase: 'publishing', services: 50, total_services: 100 }, 1).percent).toBe(
      90,
    );
    expect(progressOf({ ...counts, phase: 'done' }, 1).percent).toBe(100);
  });

  it('never passes 100% when the feed held more than announced', () => {
    expect(progressOf({ ...counts, phase: 'reading', items: 900, total_items: 500 }, 1).percent).toBe(80);
  });
});
