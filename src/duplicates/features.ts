/**
 * What a served record is compared on, read from its nested JSON as the API serves it: a service
 * (its phones, e-mail and website, and the addresses of its locations), an organization (its own,
 * and its locations'), a location (its addresses and phones). Pure.
 */
import { nameWords, normaliseEmail, normalisePhone, normalisePostcode, websiteHost } from './normalize.ts';

export const DUPLICATE_TYPES = ['service', 'organization', 'location'] as const;
export type DuplicateType = (typeof DUPLICATE_TYPES)[number];

export type AddressFeature = { line: string; words: string[]; postcode?: string; city?: string };

/** One record as detection sees it. */
export type DuplicateCandidate = {
  type: DuplicateType;
  id: string;
  /** The names of the sources whose stored copy provides it. */
  sources: string[];
  name: string;
  nameWords: string[];
  postcodes: string[];
  phones: string[];
  emails: string[];
  hosts: string[];
  addresses: AddressFeature[];
};

type Json = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
const uniq = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))];

function addressesOf(record: Json): AddressFeature[] {
  return list(record.addresses).map((address) => {
    const line = [str(address.address_1), str(address.address_2)].filter(Boolean).join(', ');
    const postcode = normalisePostcode(str(address.postal_code));
    const city = str(address.city)?.toLowerCase();
    return { line, words: nameWords(line), ...(postcode ? { postcode } : {}), ...(city ? { city } : {}) };
  });
}

const phonesOf = (record: Json) => list(record.phones).map((phone) => normalisePhone(str(phone.number)));

/** The locations a record is at: a service's through its service_at_locations, an organization's own. */
function locationsOf(type: DuplicateType, record: Json): Json[] {
  if (type === 'location') return [record];
  if (type === 'organization') return list(record.locations);
  return list(record.service_at_locations)
    .map((sal) => sal.location)
    .filter((l): l is Json => typeof l === 'object' && l !== null);
}

/** The features of one nested record; `sources` as the records store names them. */
export function toCandidate(
  type: DuplicateType,
  record: Json,
  sources: readonly string[],
): DuplicateCandidate {
  const locations = locationsOf(type, record);
  const addresses = locations.flatMap(addressesOf);
  const name = str(record.name) ?? '';
  return {
    type,
    id: String(record.id),
    sources: [...new Set(sources)].sort(),
    name,
    nameWords: nameWords(name),
    postcodes: uniq(addresses.map((a) => a.postcode)),
    phones: uniq([...phonesOf(record), ...(type === 'location' ? [] : locations.flatMap(phonesOf))]),
    emails: uniq([normaliseEmail(str(record.email))]),
    hosts: uniq([websiteHost(str(record.url)), websiteHost(str(record.website))]),
    addresses,
  };
}
