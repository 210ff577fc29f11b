/**
 * A labelled set for duplicate detection, built on the synthetic directory (src/synthetic):
 *
 * - source `a`: the first `services` synthetic services, as generated;
 * - source `b`: for `duplicates` of them, the same service republished under a new id, worded,
 *   cased and formatted differently (name wording and case, postcode spacing and case, phone
 *   formats, e-mail case, website scheme and `www.`), and sometimes without its phone or e-mail;
 *   these are the known duplicate pairs;
 * - source `b` too: for `lookAlikes` others, a branch of the same charity in another town: the
 *   same name (sometimes with the town), website and often e-mail, at another address, postcode
 *   and phone: not duplicates.
 *
 * Services the generator repeats within an organization (same name) are left out of source `a`.
 * Deterministic for a seed. The records are nested services, the shape the API serves, so the
 * detection reads them with the same feature extraction as served records.
 */
import { generateDataset } from '../../src/synthetic/generate.ts';
import { hashSeed, SeededRandom } from '../../src/synthetic/seeded-random.ts';
import { loadUkPlaces } from '../../src/synthetic/uk-places.ts';

type Json = Record<string, unknown>;

export type LabelledRecord = { source: 'a' | 'b'; record: Json };

export type DuplicateSet = {
  records: LabelledRecord[];
  /** The known duplicate pairs, as [id in a, id in b]. */
  duplicates: [string, string][];
  /** The look-alike pairs (branches in other towns), as [id in a, id in b]: not duplicates. */
  lookAlikes: [string, string][];
};

export type DuplicateSetOptions = { services: number; duplicates: number; lookAlikes: number; seed: string };

const clone = <T>(value: T): T => structuredClone(value);

function newId(random: SeededRandom): string {
  const hex = () => random.uint32().toString(16).padStart(8, '0');
  const h = hex() + hex() + hex() + hex();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** How a second publisher words a name. */
const NAME_WORDINGS: ((name: string, town: string) => string)[] = [
  (n) => n.toUpperCase(),
  (n) => n.toLowerCase(),
  (n) => n.replace(/ and /g, ' & '),
  (n) => `The ${n}`,
  (n, town) => `${n} (${town})`,
  (n) => n.replace(/Centre/g, 'Center').replace(/Service\b/g, 'Services'),
  (n) => `${n} Ltd`,
  (n) => n.replace(/ at .*/, ''),
  (n) => n.replace(/^(\S+)(\S)(\S)/, '$1$3$2'), // a typo: two letters swapped
  (n) => n.replace(/\b(\w)(\w*)/g, (_, f: string, r: string) => f.toLowerCase() + r.toUpperCase()),
];

/** How a second publisher writes a postcode. */
const POSTCODE_FORMS: ((p: string) => string)[] = [
  (p) => p.replace(/\s+/g, ''),
  (p) => p.toLowerCase(),
  (p) => p.replace(' ', '  '),
  (p) => p.toLowerCase().replace(/\s+/g, ''),
];

/** How a second publisher writes a UK phone number ("01632 960277"). */
const PHONE_FORMS: ((n: string) => string)[] = [
  (n) => `+44 ${n.slice(1)}`,
  (n) => n.replace(/\s+/g, ''),
  (n) => n.replace(/^(\d+) (\d+)$/, '($1) $2'),
  (n) => `+44 (0)${n.slice(1)}`,
  (n) => n.replace(/\s+/g, '').replace(/^(\d{5})(\d{3})(\d+)$/, '$1-$2-$3'),
];

const addressesOf = (service: Json): Json[] =>
  ((service.service_at_locations as Json[] | undefined) ?? []).flatMap(
    (sal) => ((sal.location as Json | undefined)?.addresses as Json[] | undefined) ?? [],
  );
const phonesOf = (service: Json): Json[] => (service.phones as Json[] | undefined) ?? [];

/** The same service as another source publishes it: a new id, reworded and reformatted. */
function republish(service: Json, random: SeededRandom): Json {
  const copy = clone(service);
  copy.id = newId(random);
  const town = String(addressesOf(service)[0]?.city ?? 'Aberdeen');
  copy.name = random.pick(NAME_WORDINGS)(String(service.name), town);
  for (const address of addressesOf(copy)) {
    if (typeof address.postal_code === 'string')
      address.postal_code = random.pick(POSTCODE_FORMS)(address.postal_code);
    if (typeof address.address_1 === 'string' && random.chance(0.3)) {
      address.address_1 = address.address_1
        .replace(/Road$/, 'Rd')
        .replace(/Street$/, 'St')
        .toUpperCase();
    }
  }
  for (const phone of phonesOf(copy)) {
    if (typeof phone.number === 'string') phone.number = random.pick(PHONE_FORMS)(phone.number);
  }
  if (typeof copy.email === 'string') copy.email = random.chance(0.5) ? copy.email.toUpperCase() : copy.email;
  if (typeof copy.url === 'string')
    copy.url = copy.url.replace('https://', random.chance(0.5) ? 'http://www.' : 'https://');
  // Second publishers leave things out.
  // One in five without its phones; of the others, one in five without its e-mail.
  const leftOut = random.next();
  if (leftOut < 0.2) copy.phones = [];
  else if (leftOut < 0.36) delete copy.email;
  return copy;
}

/** A branch of the same charity in another town: same name and website, another place and phone. */
function branchElsewhere(service: Json, random: SeededRandom, places: ReturnType<typeof loadUkPlaces>): Json {
  const copy = clone(service);
  copy.id = newId(random);
  // Another post town (the synthetic directory is Aberdeen's: Peterculter, Milltimber, and a few
  // London and Manchester postcodes are the others).
  const town = String(addressesOf(service)[0]?.city ?? '');
  const elsewhere = places.filter((p) => p.city !== town);
  const place = random.pick(elsewhere);
  if (random.chance(0.5)) copy.name = `${String(service.name)} ${place.area}`;
  for (const address of addressesOf(copy)) {
    address.postal_code = place.postcode;
    address.city = place.city;
    address.address_1 = `${random.int(1, 200)} ${random.pick(place.streets)}`;
  }
  for (const phone of phonesOf(copy)) {
    phone.number = `01632 ${String(960000 + random.int(0, 999)).slice(0, 6)}`;
  }
  // A charity's branches often share its central inbox.
  if (random.chance(0.5)) delete copy.email;
  return copy;
}

export function buildDuplicateSet(options: DuplicateSetOptions): DuplicateSet {
  const random = new SeededRandom(hashSeed(options.seed), 77);
  const places = loadUkPlaces();
  const dataset = generateDataset({ services: options.services, seed: options.seed });
  const records: LabelledRecord[] = [];
  const duplicates: [string, string][] = [];
  const lookAlikes: [string, string][] = [];
  // The generator sometimes gives an organization two services of one name and e-mail (the same
  // service at two of its sites): duplicates within source a that the labels would not know of.
  // The later one is left out, so every pair the labels call distinct is.
  const seen = new Set<string>();
  let i = 0;
  for (const generated of dataset.services()) {
    const service = generated as unknown as Json;
    const twin = `${String(service.organization_id)}|${String(service.name).toLowerCase()}`;
    if (seen.has(twin)) continue;
    seen.add(twin);
    records.push({ source: 'a', record: service });
    if (i < options.duplicates) {
      const copy = republish(service, random);
      records.push({ source: 'b', record: copy });
      duplicates.push([String(service.id), String(copy.id)]);
    } else if (i < options.duplicates + options.lookAlikes) {
      const branch = branchElsewhere(service, random, places);
      records.push({ source: 'b', record: branch });
      lookAlikes.push([String(service.id), String(branch.id)]);
    }
    i += 1;
  }
  return { records, duplicates, lookAlikes };
}
