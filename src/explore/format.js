/**
 * Pure functions from HSDS records to what a person reads: distances, addresses, phone links,
 * opening times. No DOM here, so the unit tests run them in Node (test/unit/explore/).
 */

export const DAYS = [
  { code: 'MO', name: 'Monday', short: 'Mon' },
  { code: 'TU', name: 'Tuesday', short: 'Tue' },
  { code: 'WE', name: 'Wednesday', short: 'Wed' },
  { code: 'TH', name: 'Thursday', short: 'Thu' },
  { code: 'FR', name: 'Friday', short: 'Fri' },
  { code: 'SA', name: 'Saturday', short: 'Sat' },
  { code: 'SU', name: 'Sunday', short: 'Sun' },
];

/** Metres as a person says them: "350 m", "1.2 km", "14 km". */
export function formatDistance(metres) {
  if (typeof metres !== 'number' || !Number.isFinite(metres)) return '';
  if (metres < 1000) return `${Math.round(metres / 10) * 10} m`;
  const km = metres / 1000;
  return `${km < 10 ? km.toFixed(1).replace(/\.0$/, '') : Math.round(km)} km`;
}

/** One line for an address: street, area, town and postcode, without blanks or repeats. */
export function formatAddress(address) {
  if (!address) return '';
  const town = [address.city, address.postal_code].filter(Boolean).join(' ');
  const parts = [address.address_1, address.address_2, town].filter((part) => part && part.trim() !== '');
  return [...new Set(parts)].join(', ');
}

/** A location's address to visit: its physical one, else its first. */
export function locationAddress(location) {
  const addresses = location?.addresses ?? [];
  return addresses.find((a) => a.address_type === 'physical') ?? addresses[0];
}

/** A phone number as a `tel:` link: digits and a leading plus only. */
export function telHref(number) {
  const trimmed = String(number ?? '').trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  return digits === '' ? '' : `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

// The schemes a page links to (src/hsds/formats.schema.ts LINK_SCHEMES): web pages, e-mail and
// phone. A `javascript:` or `data:` URL in a record would run in this page when clicked.
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/**
 * The href a page may give a link from a record (a website, a document, a virtual location): the
 * URL as the browser reads it when it is an absolute http, https, mailto or tel URL, else '' (show
 * it as text). The WHATWG parser reads the scheme as the browser will (`JavaScript:`,
 * `java\tscript:`, leading control characters), and a relative value would point into this site.
 */
export function linkHref(value) {
  if (typeof value !== 'string') return '';
  let url;
  try {
    url = new URL(value);
  } catch {
    return '';
  }
  return LINK_PROTOCOLS.has(url.protocol) ? url.href : '';
}

// The twin of src/hsds/organization.schema.ts (this page is plain browser code and imports none of
// the server's); test/unit/explore checks they agree.
const PLACEHOLDER_FIELD = 'x-placeholder';
const PLACEHOLDER_NAME = 'Unknown organization';
const PLACEHOLDER_DESCRIPTION =
  'Placeholder: services in this directory name this organization, but no imported source describes it.';

/**
 * The organization a person is shown: undefined when there is none, or when it is a placeholder
 * the directory made up because the feed never names the organization ("Unknown organization"
 * tells a person nothing and reads as if it were a name).
 */
export function shownOrganization(organization) {
  if (!organization?.name) return undefined;
  const placeholder =
    organization[PLACEHOLDER_FIELD] === true ||
    (organization.name === PLACEHOLDER_NAME && organization.description === PLACEHOLDER_DESCRIPTION);
  return placeholder ? undefined : organization;
}

/** The first phone of the first record that has one (the service at a location, then the service...). */
export function firstPhone(...records) {
  for (const record of records) {
    const phone = record?.phones?.[0];
    if (phone?.number) return phone;
  }
  return undefined;
}

/**
 * The schedules that apply: a service-at-location's own, else the service's (its HSDS 3.3
 * `operating_hours` when it has no `schedules`), else the location's.
 */
export function schedulesOf(serviceAtLocation) {
  for (const list of [
    serviceAtLocation?.schedules,
    serviceAtLocation?.service?.schedules,
    serviceAtLocation?.service?.operating_hours,
    serviceAtLocation?.location?.schedules,
  ]) {
    if (list && list.length > 0) return list;
  }
  return [];
}

const hours = (schedule) =>
  schedule.opens_at && schedule.closes_at ? `${schedule.opens_at}–${schedule.closes_at}` : '';

const weeklyDays = (schedule) => {
  if (String(schedule.freq ?? '').toUpperCase() !== 'WEEKLY' || !schedule.byday) return [];
  const codes = String(schedule.byday)
    .split(',')
    .map((day) => day.trim().toUpperCase().slice(-2));
  return DAYS.filter((day) => codes.includes(day.code));
};

/** "every 2 weeks" for a weekly schedule with an interval, else nothing. */
const everyWeeks = (schedule) =>
  Number(schedule.interval) > 1 ? `every ${Number(schedule.interval)} weeks` : '';

/**
 * Opening times as a week: one row a day (Monday first) with its opening hours, and the schedules
 * that are not a plain weekly pattern (monthly, by date, "by appointment") as notes in their own
 * words. A day with no hours is `closed` only when every schedule is weekly, because otherwise the
 * notes may open it.
 */
export function weekTable(schedules) {
  const rows = DAYS.map((day) => ({ ...day, times: [] }));
  const notes = [];
  for (const schedule of schedules ?? []) {
    const days = weeklyDays(schedule);
    const span = hours(schedule);
    if (days.length === 0 || span === '') {
      const text = schedule.description || schedule.notes || schedule.schedule_link;
      if (text) notes.push(text);
      continue;
    }
    const extra = everyWeeks(schedule);
    for (const day of days) rows[DAYS.indexOf(day)]?.times.push(extra ? `${span} (${extra})` : span);
    if (schedule.notes) notes.push(schedule.notes);
  }
  const weekly = rows.some((row) => row.times.length > 0);
  return {
    rows: rows.map((row) => ({ ...row, closed: weekly && notes.length === 0 && row.times.length === 0 })),
    notes: [...new Set(notes)],
    empty: !weekly && notes.length === 0,
  };
}

/**
 * Opening times in one short line for a list: days with the same hours together, consecutive
 * days as a range ("Mon–Fri 09:00–17:00; Sat 10:00–12:00", "Mon, Wed, Fri 10:00–14:00"), then
 * the notes.
 */
export function summariseOpening(schedules) {
  const table = weekTable(schedules);
  const byHours = new Map();
  table.rows.forEach((row, day) => {
    const key = row.times.join(', ');
    if (key === '') return;
    const runs = byHours.get(key) ?? [];
    const last = runs.at(-1);
    if (last && last.end === day - 1) last.end = day;
    else runs.push({ start: day, end: day });
    byHours.set(key, runs);
  });
  const spans = [...byHours].map(([key, runs]) => {
    const days = runs.map(({ start, end }) =>
      start === end ? DAYS[start].short : `${DAYS[start].short}–${DAYS[end].short}`,
    );
    return `${days.join(', ')} ${key}`;
  });
  return [...spans, ...table.notes].join('; ');
}

/** Ages as a phrase: "60 and over", "16 to 25", "under 18". */
export function formatAges(minimum, maximum) {
  const min = typeof minimum === 'number' ? minimum : undefined;
  const max = typeof maximum === 'number' ? maximum : undefined;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `${min} and over`;
  if (max !== undefined) return `up to ${max}`;
  return '';
}

/** A cost option: "£5.00 per session", or its description alone. */
export function formatCost(option) {
  const amount =
    typeof option.amount === 'number'
      ? new Intl.NumberFormat('en-GB', {
          style: 'currency',
          currency: option.currency || 'GBP',
        }).format(option.amount)
      : '';
  return [option.option, amount, option.amount_description].filter(Boolean).join(' – ');
}

/** The GeoJSON shapes of a list of service areas (those published as `geojson`). */
export function areaShapes(serviceAreas) {
  const shapes = [];
  for (const area of serviceAreas ?? []) {
    if (area.extent_type !== 'geojson' || !area.extent) continue;
    try {
      const shape = typeof area.extent === 'string' ? JSON.parse(area.extent) : area.extent;
      if (shape && typeof shape.type === 'string') shapes.push({ name: area.name, shape });
    } catch {
      // An extent that is not JSON is kept in the record but cannot be drawn.
    }
  }
  return shapes;
}

/** The areas a service at a location serves: its own, else its service's. */
export function servedAreas(serviceAtLocation) {
  const own = serviceAtLocation?.service_areas ?? [];
  return own.length > 0 ? own : (serviceAtLocation?.service?.service_areas ?? []);
}

/**
 * One search result as the list shows it, from either shape the page asks for: a fully nested
 * service-at-location (a search by postcode: a place where a service is offered, with its
 * distance) or a fully nested service (any other search, so a directory whose services have no
 * locations is searched too). `phones` are the records whose phones apply, nearest first.
 */
export function toResult(item) {
  if (item?.service) {
    return {
      id: item.id,
      service: item.service,
      location: item.location ?? {},
      schedules: schedulesOf(item),
      areas: servedAreas(item),
      phoneHolders: [item, item.service, item.location, ...(item.service.contacts ?? [])],
      distance: item.distance,
      nextOpening: item.next_opening,
    };
  }
  const service = item ?? {};
  const places = service.service_at_locations ?? [];
  // The place to show and to mark on the map: the first with coordinates, else the first.
  const sal =
    places.find(
      (p) => typeof p.location?.latitude === 'number' && typeof p.location?.longitude === 'number',
    ) ?? places[0];
  return {
    id: service.id,
    service,
    location: sal?.location ?? {},
    schedules: schedulesOf({ service, location: sal?.location }),
    areas: service.service_areas ?? [],
    phoneHolders: [service, sal, sal?.location, ...(service.contacts ?? [])],
    nextOpening: service.next_opening,
  };
}

/** The names of the areas a service serves, for a person: "Bristol, South Gloucestershire". */
export function areaNames(serviceAreas) {
  const names = (serviceAreas ?? []).map((area) => area.name || area.description).filter(Boolean);
  return [...new Set(names)].join(', ');
}

/** The first contact with a name, as a line: "Sam Jones, Advice worker (Money team)". */
export function contactLine(contacts) {
  const person = (contacts ?? []).find((contact) => contact?.name);
  if (!person) return '';
  return `${person.name}${person.title ? `, ${person.title}` : ''}${person.department ? ` (${person.department})` : ''}`;
}

/** A service's e-mail: its own, else its first contact's. */
export function emailOf(service) {
  return service?.email || (service?.contacts ?? []).find((contact) => contact?.email)?.email || '';
}

/** A date-time as a day: "16 December 2025". */
export function formatDay(value) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

const clock = (date) =>
  `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
const dayStart = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());

/**
 * A result's `next_opening` (the API works it out from every schedule by the rules of `open_at`:
 * `next_opening=true`) as a person reads it, in the browser's local time: "Open now until 14:00",
 * "Opens today 10:00", "Opens Tue 18:00" within a week, "Opens 27 Mar 10:00" beyond.
 * Undefined without one.
 */
export function describeNextOpening(next, now = new Date()) {
  const at = new Date(next?.open_now ? next.until : next?.opens_at);
  if (!next || Number.isNaN(at.getTime())) return undefined;
  if (next.open_now) return `Open now until ${clock(at)}`;
  const days = Math.round((dayStart(at) - dayStart(now)) / 86_400_000);
  if (days === 0) return `Opens today ${clock(at)}`;
  if (days > 0 && days < 7) return `Opens ${DAYS[(at.getDay() + 6) % 7].short} ${clock(at)}`;
  const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(at);
  return `Opens ${date} ${clock(at)}`;
}
