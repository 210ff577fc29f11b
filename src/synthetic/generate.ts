import type { Organization, ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../hsds/index.ts';
import { WEEKDAY_NAMES, WEEKDAYS, type Weekday } from '../schedules/calendar.ts';
import { stringifyGeometry } from './area-shapes.ts';
import {
  ACCESSIBILITY,
  APPLICATION_PROCESSES,
  BUS_ROUTES,
  FIRST_NAMES,
  FUNDERS,
  GENERIC_ORGANIZATIONS,
  JOB_TITLES,
  LANGUAGES,
  LEGAL_STATUSES,
  REQUIRED_DOCUMENTS,
  SERVICE_TOPICS,
  SURNAMES,
  VENUES,
} from './human-services.content.ts';
import { hashSeed, IdSequence, SeededRandom } from './seeded-random.ts';
import type {
  SyntheticAttribute,
  SyntheticContact,
  SyntheticCostOption,
  SyntheticLanguage,
  SyntheticLocation,
  SyntheticOrganization,
  SyntheticPhone,
  SyntheticSchedule,
  SyntheticService,
  SyntheticServiceArea,
  SyntheticServiceAtLocation,
  SyntheticTaxonomy,
  SyntheticTaxonomyTerm,
} from './synthetic.types.ts';
import {
  type AreaDraft,
  drawHoledArea,
  drawMultiArea,
  drawRadiusArea,
  drawRegionArea,
} from './synthetic-areas.ts';
import {
  type AudienceEntry,
  buildSyntheticTaxonomies,
  type LeafEntry,
  type SyntheticTaxonomySet,
} from './synthetic-taxonomy.ts';
import { loadUkPlaces, type UkPlace } from './uk-places.ts';
import { isUsPlace, loadUsPlaces, usPlacesNear } from './us-places.ts';

export type GenerateOptions = {
  /** How many services to generate (organizations follow: one to six services each). */
  services: number;
  /** Same seed (and `now`), same dataset, byte for byte. Numbers and their decimal strings agree. */
  seed: number | string;
  /** The reference time for `last_modified` and schedule dates; default 2026-01-01T00:00:00Z. */
  now?: Date;
  /**
   * Where the directory is: `uk` (default), around the UK postcode centroids of uk-places.json,
   * nearly all in Aberdeen (dense: most areas cover most places); `us`, a national directory at
   * US ZIP centroids, drawn where people live, with areas from neighbourhoods to whole states
   * (us-places.ts).
   */
  places?: 'uk' | 'us';
};

export type SyntheticDataset = {
  taxonomies: SyntheticTaxonomy[];
  taxonomyTerms: SyntheticTaxonomyTerm[];
  organizationCount: number;
  serviceCount: number;
  /** Organizations (direct fields, as nested in services), produced lazily. */
  organizations(): Generator<SyntheticOrganization>;
  /** Fully nested services, produced lazily: memory stays flat however many are asked for. */
  services(): Generator<SyntheticService>;
};

export const DEFAULT_SYNTHETIC_NOW = new Date('2026-01-01T00:00:00.000Z');

// Identifier group for the taxonomies; organizations use their index (0, 1, 2...).
const TAXONOMY_GROUP = 0xffffffff;

const SERVICES_PER_ORGANIZATION_WEIGHTS = [30, 24, 18, 12, 9, 7]; // 1..6, mean about 2.6
const LOCATIONS_PER_SERVICE_WEIGHTS = [60, 28, 12]; // 1..3
const DAY_MS = 86_400_000;

/** Draws made in this order, once per organization: the first decides its size. */
function drawServiceCount(random: SeededRandom): number {
  return 1 + random.weighted(SERVICES_PER_ORGANIZATION_WEIGHTS);
}

/**
 * Builds a deterministic synthetic HSDS dataset around the real postcode centroids of
 * uk-places.json. Nothing is generated until `organizations()` or `services()` is iterated; each
 * iteration starts afresh and yields the same records.
 */
export function generateDataset(options: GenerateOptions): SyntheticDataset {
  if (!Number.isInteger(options.services) || options.services < 0) {
    throw new RangeError(`services must be a whole number >= 0, got ${options.services}`);
  }
  const seedHash = hashSeed(options.seed);
  const now = (options.now ?? DEFAULT_SYNTHETIC_NOW).getTime();
  const taxonomy = buildSyntheticTaxonomies(new IdSequence(seedHash, TAXONOMY_GROUP));
  const sizes: number[] = [];
  for (let total = 0, k = 0; total < options.services; k++) {
    const size = Math.min(drawServiceCount(new SeededRandom(seedHash, k)), options.services - total);
    sizes.push(size);
    total += size;
  }
  const context: GeneratorContext = {
    seedHash,
    now,
    taxonomy,
    places: options.places === 'us' ? loadUsPlaces() : loadUkPlaces(),
  };

  return {
    taxonomies: taxonomy.taxonomies satisfies TaxonomyFull[],
    taxonomyTerms: taxonomy.terms satisfies TaxonomyTermFull[],
    organizationCount: sizes.length,
    serviceCount: options.services,
    *organizations() {
      for (let k = 0; k < sizes.length; k++)
        yield startOrganization(context, k).organization satisfies Organization;
    },
    *services() {
      for (let k = 0; k < sizes.length; k++) {
        const org = startOrganization(context, k);
        const size = sizes[k] ?? 0;
        for (let j = 0; j < size; j++) yield buildService(context, org);
      }
    },
  };
}

type GeneratorContext = {
  seedHash: number;
  now: number;
  taxonomy: SyntheticTaxonomySet;
  places: readonly UkPlace[];
};

/** A place where an organization works; its services share the location record. */
type Site = { place: UkPlace; venue: string; street: string; number: number; data: SiteData };
type SiteData = {
  locationId: string;
  addressId: string;
  accessibility: { id: string; description: string; details: string }[];
  transportation: string;
};

type OrganizationState = {
  random: SeededRandom;
  ids: IdSequence;
  organization: SyntheticOrganization;
  topIndex: number;
  home: UkPlace;
  domain: string;
  sites: Site[];
};

// Inputs repeat (service nouns, organization and person names), so slugs are cached.
const slugs = new Map<string, string>();

function slugify(text: string): string {
  let slug = slugs.get(text);
  if (slug === undefined) {
    slug = computeSlug(text);
    if (slugs.size < 50_000) slugs.set(text, slug);
  }
  return slug;
}

function computeSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function fill(template: string, place: UkPlace, street = ''): string {
  return template.replace('{area}', place.area).replace('{street}', street);
}

function startOrganization(context: GeneratorContext, index: number): OrganizationState {
  const random = new SeededRandom(context.seedHash, index);
  const ids = new IdSequence(context.seedHash, index);
  const serviceCount = drawServiceCount(random);
  const topIndex = random.int(0, SERVICE_TOPICS.length - 1);
  const top = SERVICE_TOPICS[topIndex]!;
  const home = random.pick(context.places);
  const name = fill(
    random.chance(0.65) ? random.pick(top.organizations) : random.pick(GENERIC_ORGANIZATIONS),
    home,
  );
  // Same-named organizations are common at scale; a short suffix in the domain keeps addresses apart.
  const domain = `${slugify(name)}-${(random.uint32() % 46656).toString(36)}.example.org`;
  const founded = random.int(1962, 2023);
  const organization: SyntheticOrganization = {
    id: ids.next(),
    name,
    ...(random.chance(0.2) ? { alternate_name: initials(name) } : {}),
    description: `${name} is a ${random.chance(0.7) ? 'local charity' : 'community organization'} working in ${home.area} and across ${home.council} since ${founded}. ${top.description}`,
    email: `${random.pick(['info', 'hello', 'enquiries', 'admin'])}@${domain}`,
    website: `https://${domain}/`,
    legal_status: random.pick(LEGAL_STATUSES),
    year_incorporated: founded,
  };
  const siteCount = Math.min(4, 1 + random.int(0, Math.ceil(serviceCount / 2)));
  const sites: Site[] = [];
  for (let s = 0; s < siteCount; s++) {
    const place = s === 0 ? home : pickNearby(random, context.places, home);
    const street = random.pick(place.streets);
    sites.push({
      place,
      street,
      number: random.int(1, 240),
      venue: fill(random.pick(VENUES), place, street),
      data: {
        locationId: ids.next(),
        addressId: ids.next(),
        accessibility: random
          .sample(ACCESSIBILITY, random.int(0, 2))
          .map(([description, details]) => ({ id: ids.next(), description, details })),
        transportation: `Buses ${random.sample(BUS_ROUTES, 2).join(' and ')} stop nearby.${random.chance(0.4) ? ' Free parking on site.' : ''}`,
      },
    });
  }
  return { random, ids, organization, topIndex, home, domain, sites };
}

function initials(name: string): string {
  return name
    .split(/[\s,]+/)
    .filter((word) => /^[A-Z]/.test(word))
    .map((word) => word[0])
    .join('');
}

/** Most second sites are in the same postcode district as the first. */
function pickNearby(random: SeededRandom, places: readonly UkPlace[], home: UkPlace): UkPlace {
  if (isUsPlace(home)) return random.pick(usPlacesNear(home));
  for (let attempt = 0; attempt < 20 && random.chance(0.6); attempt++) {
    const place = random.pick(places);
    if (place.outcode === home.outcode) return place;
  }
  return random.pick(places);
}

function buildService(context: GeneratorContext, org: OrganizationState): SyntheticService {
  const { random, ids } = org;
  const id = ids.next();

  const primary = pickLeaf(random, context.taxonomy.leavesByTop, org.topIndex);
  const noun = random.pick(primary.leaf.nouns);
  const audience = pickAudience(random, context.taxonomy.audiences, primary);
  const virtualOnly = random.chance(0.05);
  const siteCount = Math.min(org.sites.length, 1 + random.weighted(LOCATIONS_PER_SERVICE_WEIGHTS));
  const sites = virtualOnly ? [] : random.sample(org.sites, siteCount);
  const anchor = sites[0]?.place ?? org.home;

  const name = virtualOnly
    ? `${random.pick(isUsPlace(anchor) ? [anchor.stateName, 'Statewide', anchor.city] : ['North East', 'Grampian', anchor.city])} ${noun} ${random.pick(['Helpline', 'Online'])}`
    : pickServiceName(random, noun, anchor, sites[0]!, org.organization.name);
  const slug = slugify(noun);
  const helpline =
    virtualOnly || primary.leaf.name.includes('helpline') || primary.leaf.name === 'Crisis support';

  const extraTerms = random.sample(
    context.taxonomy.leavesByTop[
      random.chance(0.6) ? org.topIndex : random.int(0, SERVICE_TOPICS.length - 1)
    ]!.filter((l) => l !== primary),
    random.weighted([50, 35, 15]),
  );
  const primaryTerm = random.chance(0.85) ? primary.term : primary.parent;

  const status = pickStatus(random);
  const lastModified = context.now - random.int(0, 730 * 86_400) * 1000;
  const schedules = buildSchedules(random, ids, helpline, context.now);
  const perSiteSchedules = sites.length > 1 && !helpline && random.chance(0.6);
  const cost = buildCosts(random, ids, context.now);

  const salAreas = new Map<number, SyntheticServiceArea[]>();
  const serviceAreas = buildAreas(context, org, sites, virtualOnly, anchor, salAreas);

  const serviceAtLocations: SyntheticServiceAtLocation[] = virtualOnly
    ? [
        {
          id: ids.next(),
          service_areas: [],
          contacts: [],
          phones: [],
          schedules: [],
          location: virtualLocation(ids, org, name, slug),
        },
      ]
    : sites.map((site, i) => ({
        id: ids.next(),
        description: `${name} at ${site.venue}.`,
        service_areas: salAreas.get(i) ?? [],
        contacts: [],
        phones: random.chance(0.15) ? [phone(random, ids, 'voice', `Direct line for ${site.venue}.`)] : [],
        schedules: perSiteSchedules ? buildSchedules(random, ids, false, context.now) : [],
        location: physicalLocation(org, site),
      }));

  const extraLanguages = random.chance(0.2) ? random.sample(LANGUAGES, random.int(1, 2)) : [];
  const languages: SyntheticLanguage[] = [
    { id: ids.next(), name: 'English', code: 'en' },
    ...extraLanguages.map((language) => ({
      id: ids.next(),
      name: language.name,
      code: language.code,
      ...(random.chance(0.5) ? { note: `Staff who use ${language.name} are available on request.` } : {}),
    })),
  ];

  const ages = audience?.audience;
  const attributes: SyntheticAttribute[] = [
    attribute(ids, id, 'service_category', primaryTerm),
    ...extraTerms.map((entry) => attribute(ids, id, 'service_category', entry.term)),
    ...(audience ? [attribute(ids, id, 'audience', audience.term)] : []),
  ];

  const where = virtualOnly
    ? 'Available by phone and online.'
    : `Available at ${joinNames(sites.map((s) => `${s.venue}, ${s.place.area}`))}.`;
  const alsoHelps = extraTerms.length
    ? ` We can also help with ${joinNames(extraTerms.map((e) => e.leaf.name.toLowerCase()))}.`
    : '';
  const service: SyntheticService = {
    id,
    organization_id: org.organization.id,
    name,
    ...(random.chance(0.2) ? { alternate_name: primary.leaf.name } : {}),
    description: `${primary.leaf.description} Run by ${org.organization.name}. ${where}${alsoHelps}${ages ? ` For ${ages.name.toLowerCase()}.` : ''}`,
    url: `https://${org.domain}/services/${slug}`,
    email: `${slug}@${org.domain}`,
    status,
    ...(extraLanguages.length || random.chance(0.15)
      ? {
          interpretation_services:
            'Interpreters for other languages can be booked through a telephone interpreting service.',
        }
      : {}),
    application_process: random.pick(APPLICATION_PROCESSES),
    fees_description: cost.description,
    ...(ages
      ? {
          eligibility_description: `${ages.description}${random.chance(0.5) ? ` Living in ${anchor.council}.` : ''}`,
          ...(ages.minimumAge !== undefined ? { minimum_age: ages.minimumAge } : {}),
          ...(ages.maximumAge !== undefined ? { maximum_age: ages.maximumAge } : {}),
        }
      : {}),
    ...(status === 'temporarily closed'
      ? { alert: `Closed until further notice while we move premises. Please phone for updates.` }
      : {}),
    last_modified: new Date(lastModified).toISOString(),
    phones: buildServicePhones(random, ids, helpline),
    schedules: perSiteSchedules ? [] : schedules,
    service_areas: serviceAreas,
    service_at_locations: serviceAtLocations,
    languages,
    organization: { ...org.organization },
    funding: random.chance(0.3) ? [{ id: ids.next(), source: random.pick(FUNDERS) }] : [],
    cost_options: cost.options,
    required_documents: random.chance(0.15)
      ? [{ id: ids.next(), document: random.pick(REQUIRED_DOCUMENTS) }]
      : [],
    contacts: random.chance(0.35) ? [contact(random, ids, org.domain)] : [],
    attributes,
  };
  // The generator's own types are narrower than the project's HSDS schemas; this keeps them inside.
  return service satisfies ServiceFull;
}

function joinNames(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function pickLeaf(random: SeededRandom, leavesByTop: readonly LeafEntry[][], home: number): LeafEntry {
  const top = random.chance(0.7) ? home : random.int(0, leavesByTop.length - 1);
  return random.pick(leavesByTop[top]!);
}

// Audiences that fit a topic are more likely than a random one ("Youth clubs" for young people).
const AUDIENCE_HINTS: Record<string, readonly string[]> = {
  FAMILY: ['CHILDREN', 'YOUNG_PEOPLE', 'FAMILIES', 'CARERS'],
  CARE: ['OLDER_PEOPLE', 'DISABLED', 'CARERS'],
  SAFETY: ['WOMEN', 'YOUNG_PEOPLE', 'REFUGEES', 'LGBTQ'],
  WORK: ['ADULTS', 'YOUNG_PEOPLE', 'REFUGEES', 'VETERANS'],
};

function pickAudience(
  random: SeededRandom,
  audiences: readonly AudienceEntry[],
  primary: LeafEntry,
): AudienceEntry | undefined {
  if (!random.chance(0.35)) return undefined;
  const hints = AUDIENCE_HINTS[primary.top.code];
  if (hints && random.chance(0.7)) {
    const code = random.pick(hints);
    return audiences.find((a) => a.audience.code === code);
  }
  return random.pick(audiences);
}

function pickServiceName(
  random: SeededRandom,
  noun: string,
  place: UkPlace,
  site: Site,
  organization: string,
): string {
  switch (random.weighted([55, 15, 10, 20])) {
    case 0:
      return `${place.area} ${noun}`;
    case 1:
      return `${noun} at ${site.venue}`;
    case 2:
      return `${organization} ${noun}`;
    default:
      return `${place.city} ${noun}`;
  }
}

function pickStatus(random: SeededRandom): SyntheticService['status'] {
  return (['active', 'temporarily closed', 'inactive'] as const)[random.weighted([97, 2, 1])]!;
}

function attribute(
  ids: IdSequence,
  serviceId: string,
  linkType: string,
  term: SyntheticTaxonomyTerm,
): SyntheticAttribute {
  return {
    id: ids.next(),
    link_id: serviceId,
    link_type: linkType,
    link_entity: 'service',
    taxonomy_term_id: term.id,
    label: term.name,
    taxonomy_term: { ...term, taxonomy_detail: { ...term.taxonomy_detail } },
  };
}

// Ofcom keeps these ranges for drama and fiction, so no generated number rings a real phone.
function phoneNumber(random: SeededRandom, kind: 'landline' | 'mobile' | 'freephone'): string {
  const tail = random.int(0, 999).toString().padStart(3, '0');
  if (kind === 'mobile') return `07700 900${tail}`;
  if (kind === 'freephone') return `0808 157 0${tail}`;
  return `01632 960${tail}`;
}

function phone(
  random: SeededRandom,
  ids: IdSequence,
  type: 'voice' | 'text',
  description?: string,
): SyntheticPhone {
  return {
    id: ids.next(),
    number: phoneNumber(random, type === 'text' ? 'mobile' : 'landline'),
    type,
    ...(description ? { description } : {}),
    languages: [],
  };
}

function buildServicePhones(random: SeededRandom, ids: IdSequence, helpline: boolean): SyntheticPhone[] {
  const phones: SyntheticPhone[] = [];
  if (helpline) {
    phones.push({
      id: ids.next(),
      number: phoneNumber(random, 'freephone'),
      type: 'voice',
      description: 'Free to call from landlines and mobiles.',
      languages: [],
    });
  } else {
    phones.push(phone(random, ids, 'voice', random.chance(0.5) ? 'Main number.' : undefined));
  }
  if (random.chance(0.2)) phones.push(phone(random, ids, 'text', 'Text us and we will call you back.'));
  return phones;
}

function contact(random: SeededRandom, ids: IdSequence, domain: string): SyntheticContact {
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(SURNAMES);
  return {
    id: ids.next(),
    name: `${first} ${last}`,
    title: random.pick(JOB_TITLES),
    email: `${slugify(first)}.${slugify(last)}@${domain}`,
    phones: [phone(random, ids, 'voice')],
  };
}

const SESSIONS: readonly [string, string][] = [
  ['09:30', '12:30'],
  ['10:00', '12:00'],
  ['10:00', '14:00'],
  ['13:00', '15:00'],
  ['13:30', '16:30'],
  ['18:00', '20:00'],
];

function clock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}${m ? `.${String(m).padStart(2, '0')}` : ''}${h < 12 ? 'am' : 'pm'}`;
}

function describeDays(days: readonly Weekday[]): string {
  if (days.length === 7) return 'Every day';
  if (days.join(',') === 'MO,TU,WE,TH,FR') return 'Monday to Friday';
  return joinNames(days.map((d) => `${WEEKDAY_NAMES[d]}s`));
}

function schedule(
  ids: IdSequence,
  days: readonly Weekday[],
  opens: string,
  closes: string,
  extra: { interval?: number; dtstart?: string } = {},
): SyntheticSchedule {
  const every = extra.interval === 2 ? 'Every other ' : '';
  const dayText = every ? `${every}${WEEKDAY_NAMES[days[0]!]}` : describeDays(days);
  return {
    id: ids.next(),
    ...(extra.dtstart ? { dtstart: extra.dtstart } : {}),
    freq: 'WEEKLY',
    interval: extra.interval ?? 1,
    wkst: 'MO',
    byday: days.join(','),
    opens_at: opens,
    closes_at: closes,
    description:
      opens === '00:00' && closes === '23:59'
        ? 'Open 24 hours a day, every day.'
        : `${dayText}, ${clock(opens)} to ${clock(closes)}.`,
  };
}

function buildSchedules(
  random: SeededRandom,
  ids: IdSequence,
  helpline: boolean,
  now: number,
): SyntheticSchedule[] {
  if (helpline) {
    return random.chance(0.6)
      ? [schedule(ids, WEEKDAYS, '00:00', '23:59')]
      : [schedule(ids, WEEKDAYS.slice(0, 5), '09:00', '20:00')];
  }
  const weekdays = WEEKDAYS.slice(0, 5);
  switch (random.weighted([30, 15, 35, 10, 10])) {
    case 0:
      return [schedule(ids, weekdays, '09:00', '17:00')];
    case 1:
      return [schedule(ids, weekdays, '10:00', '16:00')];
    case 2: {
      const days = random
        .sample(WEEKDAYS.slice(0, 6), random.int(1, 3))
        .sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));
      const [opens, closes] = random.pick(SESSIONS);
      return [schedule(ids, days, opens, closes)];
    }
    case 3:
      return [schedule(ids, weekdays, '09:00', '17:00'), schedule(ids, ['SA'], '10:00', '13:00')];
    default: {
      // Fortnightly sessions need a first date to count from.
      const [opens, closes] = random.pick(SESSIONS);
      const start = isoDate(now - random.int(7, 180) * DAY_MS);
      return [schedule(ids, [random.pick(weekdays)], opens, closes, { interval: 2, dtstart: start })];
    }
  }
}

function buildCosts(
  random: SeededRandom,
  ids: IdSequence,
  now: number,
): { description: string; options: SyntheticCostOption[] } {
  const kind = random.weighted([55, 15, 30]);
  if (kind === 0) return { description: 'Free of charge.', options: [] };
  if (kind === 1) {
    return {
      description: 'Free of charge.',
      options: [{ id: ids.next(), option: 'Free', currency: 'GBP', amount: 0 }],
    };
  }
  const validFrom = isoDate(now - random.int(30, 400) * DAY_MS);
  const choices: SyntheticCostOption[] = [
    {
      id: ids.next(),
      valid_from: validFrom,
      option: 'Per session',
      currency: 'GBP',
      amount: random.int(2, 12) / 2,
      amount_description: 'Free for people on means-tested benefits.',
    },
    {
      id: ids.next(),
      valid_from: validFrom,
      option: 'Weekly membership',
      currency: 'GBP',
      amount: random.int(5, 9) / 2,
      amount_description: 'Choose groceries worth several times as much.',
    },
    {
      id: ids.next(),
      valid_from: validFrom,
      option: 'Annual membership',
      currency: 'GBP',
      amount: random.int(1, 4) * 5,
    },
  ];
  const options = random.sample(choices, random.int(1, 2));
  return {
    description: `Small charges apply: ${options.map((o) => `${o.option.toLowerCase()} £${o.amount.toFixed(2)}`).join('; ')}. Nobody is turned away for lack of money.`,
    options,
  };
}

function physicalLocation(org: OrganizationState, site: Site): SyntheticLocation {
  const { place } = site;
  return {
    id: site.data.locationId,
    location_type: 'physical',
    organization_id: org.organization.id,
    name: site.venue,
    description: `${site.venue}, ${site.number} ${site.street}, ${place.area}.`,
    transportation: site.data.transportation,
    latitude: place.lat,
    longitude: place.lon,
    languages: [],
    addresses: [
      {
        id: site.data.addressId,
        address_1: `${site.number} ${site.street}`,
        ...(place.area !== place.city ? { address_2: place.area } : {}),
        city: place.city,
        ...(isUsPlace(place)
          ? { state_province: place.state, postal_code: place.postcode, country: 'US' }
          : {
              region:
                place.council === 'Southwark' || place.council === 'Manchester' ? 'England' : 'Scotland',
              state_province: place.council,
              postal_code: place.postcode,
              country: 'GB',
            }),
        address_type: 'physical',
      },
    ],
    accessibility: site.data.accessibility.map((a) => ({ ...a })),
    phones: [],
    schedules: [],
  };
}

function virtualLocation(
  ids: IdSequence,
  org: OrganizationState,
  serviceName: string,
  slug: string,
): SyntheticLocation {
  return {
    id: ids.next(),
    location_type: 'virtual',
    url: `https://${org.domain}/online/${slug}`,
    organization_id: org.organization.id,
    name: `${serviceName} (online and phone)`,
    description:
      'This service is delivered by phone, video call and web chat; there is no building to visit.',
    languages: [],
    addresses: [],
    accessibility: [],
    phones: [],
    schedules: [],
  };
}

function toServiceArea(ids: IdSequence, draft: AreaDraft): SyntheticServiceArea {
  return {
    id: ids.next(),
    name: draft.name,
    description: draft.description,
    extent: stringifyGeometry(draft.geometry),
    extent_type: 'geojson',
  };
}

/**
 * About 15% of services have no service area anywhere. Most of the rest have areas on the service;
 * some also have narrower areas on particular service-at-locations, and a few have areas only on
 * their service-at-locations, so that "its own areas, else its service's" is exercised both ways.
 */
function buildAreas(
  context: GeneratorContext,
  org: OrganizationState,
  sites: readonly Site[],
  virtualOnly: boolean,
  anchor: UkPlace,
  salAreas: Map<number, SyntheticServiceArea[]>,
): SyntheticServiceArea[] {
  const { random, ids } = org;
  if (random.chance(0.15)) return [];
  const label = sites[0]?.venue ?? anchor.area;
  const anchors = sites.map((s) => ({ point: s.place, label: s.place.area }));
  // Places for holes, outreach and second areas: across the sample in the UK (one city), the
  // anchor's part of its state in the US.
  const places = isUsPlace(anchor) ? usPlacesNear(anchor) : context.places;

  const drafts: AreaDraft[] = [];
  const kind = virtualOnly
    ? ['region', 'radius', 'multi'][random.weighted([60, 25, 15])]
    : ['radius', 'region', 'holed', 'multi', 'two', 'sal-only'][random.weighted([45, 16, 12, 12, 10, 5])];
  switch (kind) {
    case 'region':
      drafts.push(drawRegionArea(random, anchor));
      break;
    case 'holed':
      drafts.push(drawHoledArea(random, anchor, label, places));
      break;
    case 'multi':
      drafts.push(drawMultiArea(random, anchors, places) ?? drawRadiusArea(random, anchor, label));
      break;
    case 'two':
      drafts.push(drawRadiusArea(random, anchor, label));
      if (random.chance(0.5)) {
        drafts.push(drawRegionArea(random, anchor));
      } else {
        const elsewhere = random.pick(places);
        drafts.push(drawRadiusArea(random, elsewhere, elsewhere.area));
      }
      break;
    case 'sal-only':
      break;
    default:
      drafts.push(drawRadiusArea(random, anchor, label));
  }

  sites.forEach((site, i) => {
    if (kind === 'sal-only' || random.chance(0.1)) {
      const draft = drawRadiusArea(random, site.place, site.venue, 500, 3_000);
      salAreas.set(i, [
        toServiceArea(ids, {
          ...draft,
          name: `Home visits ${draft.name.charAt(0).toLowerCase()}${draft.name.slice(1)}`,
        }),
      ]);
    }
  });
  if (kind === 'sal-only' && salAreas.size === 0) drafts.push(drawRegionArea(random, anchor));
  return drafts.map((draft) => toServiceArea(ids, draft));
}
