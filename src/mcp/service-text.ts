/**
 * The plain-language lines an assistant reads for a record: its name, organization, address,
 * phone, opening times, distance and URL, each only when the record says it. Pure functions of
 * the API's JSON answers (nothing here reads the engine): a field the record lacks is a line left
 * out, never a guess.
 */
import { isPlaceholderOrganization } from '../hsds/index.ts';
import { weekdayName } from '../schedules/calendar.ts';

/** A record as the API serves it: JSON, read defensively (the tools never trust a shape). */
export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** "1 Union Street, Aberdeen, AB10 1AB": the first physical address, else the first of any kind. */
export function addressOf(addresses: unknown): string | undefined {
  const all = list(addresses);
  const address = all.find((a) => a.address_type === 'physical') ?? all[0];
  if (!address) return undefined;
  const parts = [
    address.address_1,
    address.address_2,
    address.city,
    address.state_province,
    address.postal_code,
  ]
    .map(text)
    .filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** "01224 000000 (ext. 12)", each number the records give, the first holders first. */
export function phonesOf(...holders: unknown[]): string | undefined {
  for (const phones of holders) {
    const numbers = list(phones)
      .map((p) => {
        const number = text(p.number);
        if (!number) return undefined;
        const extension =
          typeof p.extension === 'number' || text(p.extension) ? ` (ext. ${p.extension})` : '';
        return `${number}${extension}`;
      })
      .filter((n): n is string => n !== undefined);
    if (numbers.length > 0) return [...new Set(numbers)].join(', ');
  }
  return undefined;
}

/** One schedule as written: its description, else its days and hours. */
function scheduleText(schedule: Json): string | undefined {
  const description = text(schedule.description);
  if (description) return description;
  const days = text(schedule.byday)
    ?.split(',')
    .map((day) => weekdayName(day.trim()) ?? day.trim())
    .join(', ');
  const opens = text(schedule.opens_at)?.slice(0, 5);
  const closes = text(schedule.closes_at)?.slice(0, 5);
  const hours =
    opens && closes ? `${opens}-${closes}` : opens ? `from ${opens}` : closes ? `until ${closes}` : '';
  const said = [days, hours].filter(Boolean).join(' ');
  return said || undefined;
}

/** The opening times of the first holder that has schedules: "Monday, Tuesday 09:00-17:00; ...". */
export function openingTimesOf(...holders: unknown[]): string | undefined {
  for (const schedules of holders) {
    const said = list(schedules)
      .map(scheduleText)
      .filter((s): s is string => s !== undefined);
    if (said.length > 0) return [...new Set(said)].join('; ');
  }
  return undefined;
}

/** "300 m" or "1.2 km". */
export function distanceText(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

/**
 * The organization's name to tell: none for a placeholder (its "Unknown organization" is the
 * directory's, not the publisher's; src/hsds/organization.schema.ts), which an assistant would
 * otherwise read out as if it were a name.
 */
const organizationName = (organization: Json): string | undefined =>
  isPlaceholderOrganization(organization) ? undefined : text(organization.name);

/** What an assistant is told of one search result (a fully nested service_at_location). */
export type ServiceSummary = {
  service_id: string;
  service_at_location_id?: string;
  name: string;
  organization?: string;
  location?: string;
  address?: string;
  phone?: string;
  email?: string;
  website?: string;
  /** The names of the areas it serves (a service without a place often says only these). */
  areas_served?: string;
  opening_times?: string;
  /** Metres from the postcode's centroid (only with a postcode). */
  distance_m?: number;
  url: string;
};

/** "Bristol, South Gloucestershire": the names of the areas served, each once. */
function areasOf(...holders: unknown[]): string | undefined {
  for (const areas of holders) {
    const names = list(areas)
      .map((area) => text(area.name) ?? text(area.description))
      .filter((name): name is string => name !== undefined);
    if (names.length > 0) return [...new Set(names)].join(', ');
  }
  return undefined;
}

/** The service's e-mail, else its first contact's. */
const emailOf = (service: Json | undefined): string | undefined =>
  text(service?.email) ??
  list(service?.contacts)
    .map((c) => text(c.email))
    .find(Boolean);

/** The summary of a fully nested service_at_location (GET /service_at_locations?full=true). */
export function summariseServiceAtLocation(item: Json, baseUrl: string): ServiceSummary | undefined {
  const service = isObject(item.service) ? item.service : undefined;
  const serviceId = text(service?.id) ?? text(item.service_id);
  if (!serviceId) return undefined;
  const location = isObject(item.location) ? item.location : {};
  const organization = isObject(service?.organization) ? service.organization : {};
  return withoutAbsent({
    service_id: serviceId,
    service_at_location_id: text(item.id),
    name: text(service?.name) ?? '(no name)',
    organization: organizationName(organization),
    location: text(location.name),
    address: addressOf(location.addresses),
    phone: phonesOf(item.phones, location.phones, service?.phones, organization.phones),
    email: emailOf(service),
    website: text(service?.url),
    areas_served: areasOf(item.service_areas, service?.service_areas),
    opening_times: openingTimesOf(item.schedules, location.schedules, service?.schedules),
    distance_m: typeof item.distance === 'number' ? Math.round(item.distance) : undefined,
    url: `${baseUrl}/services/${serviceId}`,
  });
}

/**
 * The summary of a fully nested service (GET /services/{id}, or a search without a postcode): its
 * first location's address, and what a service without a place says instead (areas, contacts).
 */
export function summariseService(service: Json, baseUrl: string): ServiceSummary {
  const organization = isObject(service.organization) ? service.organization : {};
  const sal = list(service.service_at_locations)[0] ?? {};
  const location = isObject(sal.location) ? sal.location : {};
  return withoutAbsent({
    service_id: text(service.id) ?? '',
    name: text(service.name) ?? '(no name)',
    organization: organizationName(organization),
    location: text(location.name),
    address: addressOf(location.addresses),
    phone: phonesOf(
      service.phones,
      sal.phones,
      location.phones,
      ...list(service.contacts).map((c) => c.phones),
      organization.phones,
    ),
    email: emailOf(service),
    website: text(service.url),
    areas_served: areasOf(service.service_areas),
    opening_times: openingTimesOf(service.schedules, sal.schedules, location.schedules),
    url: `${baseUrl}/services/${text(service.id) ?? ''}`,
  });
}

function withoutAbsent<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A few lines a person could read aloud: only what the summary holds. */
export function describeService(summary: ServiceSummary, from?: string): string {
  const lines = [summary.organization ? `${summary.name} (${summary.organization})` : summary.name];
  if (summary.location && summary.location !== summary.name) lines.push(`Location: ${summary.location}`);
  if (summary.address) lines.push(`Address: ${summary.address}`);
  if (summary.areas_served) lines.push(`Areas served: ${summary.areas_served}`);
  if (summary.phone) lines.push(`Phone: ${summary.phone}`);
  if (summary.email) lines.push(`Email: ${summary.email}`);
  if (summary.website) lines.push(`Website: ${summary.website}`);
  if (summary.opening_times) lines.push(`Opening times: ${summary.opening_times}`);
  if (summary.distance_m !== undefined) {
    lines.push(`Distance: ${distanceText(summary.distance_m)}${from ? ` from ${from}` : ''}`);
  }
  lines.push(`Record: ${summary.url}`);
  return lines.join('\n');
}
