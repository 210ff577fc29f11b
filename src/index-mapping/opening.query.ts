/**
 * `open_at` and `open_now`: records with an opening rule (src/schedules/opening-rules.ts) that
 * covers the instant. The instant's frames are computed here, per search, from the instant the
 * caller passes in; the rules were indexed once and never change with time, so nothing goes stale.
 */
import { type OpeningFrame, openingFrames } from '../schedules/opening-rules.ts';
import { F } from './fields.ts';
import type { QueryDsl } from './search.query.ts';

export type OpenAt = {
  /** The instant, in ms since the epoch. */
  instant: number;
  /** DIRECTORY_TIMEZONE: local time of schedules that state no offset. */
  directoryZone: string;
};

const frameQuery = (frame: OpeningFrame): QueryDsl => ({
  bool: {
    filter: [
      { term: { [F.openingZoned]: frame.zoned } },
      { terms: { [F.openingDays]: frame.days } },
      { terms: { [F.openingPhase]: frame.phases } },
      { range: { [F.openingFirstDay]: { lte: frame.day } } },
      { range: { [F.openingLastDay]: { gte: frame.day } } },
      { range: { [F.openingStart]: { lte: frame.minute } } },
      { range: { [F.openingEnd]: { gt: frame.minute } } },
    ],
  },
});

/**
 * One nested query: a single rule must match a frame's date and minute together. Indices built
 * before opening rules have no `opening`: `ignore_unmapped` answers nothing there rather than an
 * error, until the reindex the first import after an upgrade runs.
 */
export function openAtFilter(open: OpenAt | undefined): QueryDsl | undefined {
  if (open === undefined) return undefined;
  return {
    nested: {
      path: F.opening,
      ignore_unmapped: true,
      query: {
        bool: {
          should: openingFrames(open.instant, open.directoryZone).map(frameQuery),
          minimum_should_match: 1,
        },
      },
    },
  };
}
