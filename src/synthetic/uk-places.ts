import places from './uk-places.json' with { type: 'json' };

/** A live UK postcode centroid from the ONSPD sample (see README.md for source and licence). */
export type UkPlace = {
  postcode: string;
  outcode: string;
  lat: number;
  lon: number;
  /** Neighbourhood or town name used in invented names ("Torry Food Bank"). */
  area: string;
  /** Post town, written as HSDS `address.city`. */
  city: string;
  /** Council area, written as HSDS `address.state_province`. */
  council: string;
  streets: readonly string[];
};

type OutcodeDetail = { areas: readonly string[]; city: string; streets: readonly string[] };

// Neighbourhoods and real street names per outward code, so that an invented address reads like
// the part of the city its postcode is in. The street is not claimed to hold that postcode.
const OUTCODES: Record<string, OutcodeDetail> = {
  AB10: {
    areas: ['Ferryhill', 'Holburn', 'Ruthrieston', 'Garthdee', 'Aberdeen City Centre'],
    city: 'Aberdeen',
    streets: ['Union Street', 'Holburn Street', 'Great Western Road', 'Bon Accord Street', 'Crown Street'],
  },
  AB11: {
    areas: ['Torry', 'Footdee', 'Castlegate', 'Ferryhill'],
    city: 'Aberdeen',
    streets: ['Victoria Road', 'Market Street', 'Menzies Road', 'Wellington Road', 'Crombie Road'],
  },
  AB12: {
    areas: ['Kincorth', 'Cove Bay', 'Nigg', 'Altens'],
    city: 'Aberdeen',
    streets: ['Provost Watt Drive', 'Loirston Road', 'Wellington Road', 'Abbotswell Crescent'],
  },
  AB13: { areas: ['Milltimber'], city: 'Milltimber', streets: ['North Deeside Road', 'Monearn Gardens'] },
  AB14: {
    areas: ['Peterculter', 'Maryculter'],
    city: 'Peterculter',
    streets: ['North Deeside Road', 'Coronation Road', 'Malcolm Road'],
  },
  AB15: {
    areas: ['Cults', 'Bieldside', 'Hazlehead', 'Kingswells', 'Mannofield', 'Airyhall'],
    city: 'Aberdeen',
    streets: ['North Deeside Road', "Queen's Road", 'Anderson Drive', 'Hazlehead Avenue', 'Craigton Road'],
  },
  AB16: {
    areas: ['Mastrick', 'Northfield', 'Sheddocksley', 'Cornhill', 'Summerhill'],
    city: 'Aberdeen',
    streets: ['Mastrick Drive', 'Provost Fraser Drive', 'Byron Avenue', 'Lewis Road', 'Springhill Road'],
  },
  SE1: {
    areas: ['Bermondsey', 'Southwark'],
    city: 'London',
    streets: ['Tooley Street', 'Borough High Street'],
  },
  SE1P: { areas: ['Southwark'], city: 'London', streets: ['Southwark Street'] },
  M1: { areas: ['Manchester City Centre'], city: 'Manchester', streets: ['Oxford Road', 'Portland Street'] },
  M11: {
    areas: ['Openshaw', 'Clayton'],
    city: 'Manchester',
    streets: ['Ashton Old Road', 'Ashton New Road'],
  },
};

const FALLBACK: OutcodeDetail = { areas: ['Town Centre'], city: 'Aberdeen', streets: ['High Street'] };

// Aberdeenshire postcodes inside Aberdeen post-town sectors (AB12 3-5: Portlethen, Newtonhill).
const ABERDEENSHIRE_AREAS = ['Portlethen', 'Newtonhill', 'Banchory-Devenick'];

const COUNCILS: Record<string, string> = {
  S12000033: 'Aberdeen City',
  S12000034: 'Aberdeenshire',
  E09000028: 'Southwark',
  E08000003: 'Manchester',
};

// Postcodes of one sector ("AB11 9") lie together, so naming neighbourhoods by sector keeps a name
// in one part of the map.
function areaOf(areas: readonly string[], postcode: string): string | undefined {
  const sector = Number.parseInt(postcode.split(' ')[1]?.charAt(0) ?? '0', 10) || 0;
  return areas[sector % areas.length];
}

function toPlace(row: readonly (string | number)[]): UkPlace {
  const [postcode, lat, lon, authority] = row as [string, number, number, string];
  const outcode = postcode.split(' ')[0] ?? postcode;
  const detail = OUTCODES[outcode] ?? FALLBACK;
  const inShire = authority === 'S12000034';
  return {
    postcode,
    outcode,
    lat,
    lon,
    area: areaOf(inShire ? ABERDEENSHIRE_AREAS : detail.areas, postcode) ?? detail.city,
    city: detail.city,
    council: COUNCILS[authority] ?? 'Aberdeen City',
    streets: detail.streets,
  };
}

let cached: readonly UkPlace[] | undefined;

/** The live postcode centroids, in postcode order. Built once, on first use. */
export function loadUkPlaces(): readonly UkPlace[] {
  cached ??= places.rows.map(toPlace);
  return cached;
}
