/**
 * `next_opening=true`: each record of a list page (or stream) gains `next_opening`, when its
 * schedules next open or close (src/schedules/next-opening.ts), chosen as `open_at` chooses them
 * (the document builders' opening rules), so the two never disagree. Computed from the schedules
 * each item holds, for the time of the request; only when asked, as it parses every item.
 */
import type { ScheduleFull, ServiceFull } from '../../hsds/index.ts';
import { serviceOpeningRules } from '../../index-mapping/service.document.ts';
import { serviceAtLocationOpeningRules } from '../../index-mapping/service-at-location.document.ts';
import { nextOpening, openingCalendar } from '../../schedules/next-opening.ts';
import type { AskedAt } from './endpoint-params.ts';
import type { Enrich } from './list-route.ts';

// An item as served: parsed from the engine's JSON, which the document builders wrote from valid
// HSDS (a tombstone aside, which is never read for schedules).
type Item = Record<string, unknown> & { deleted?: boolean; service?: unknown; schedules?: ScheduleFull[] };

const rulesOf = {
  services: (item: Item) => serviceOpeningRules(item as ServiceFull),
  service_at_locations: (item: Item) =>
    serviceAtLocationOpeningRules(item, (item.service ?? {}) as ServiceFull),
};

/** The enrich step adding `next_opening` to each item of a list of `kind`. */
export function nextOpenings(kind: keyof typeof rulesOf, asked: AskedAt): Enrich {
  const calendar = openingCalendar(asked.now, asked.directoryZone);
  return async (texts) =>
    texts.map((text) => {
      const item = JSON.parse(text) as Item;
      // A tombstone (include_deleted) has no schedules to read.
      if (item.deleted === true) return text;
      const next = nextOpening(rulesOf[kind](item), calendar);
      return next ? JSON.stringify({ ...item, next_opening: next }) : text;
    });
}
