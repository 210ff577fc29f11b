/**
 * Where a service is, as words a search can name (`places`): the city, region (a district or
 * county) and postal code of each physical address of its locations, lower-cased, and a UK
 * postcode's outward code ("bs16") and a US ZIP's five digits beside the full code. Read back
 * by one aggregation (places.query.ts) as the directory's own gazetteer, so "food in Hialeah"
 * is read as a place only where the directory serves Hialeah (src/semantic/constraints.ts),
 * without a list of places written into the code. Pure: nested HSDS in, field out.
 */
import type { LocationFull } from '../hsds/index.ts';

type Location = Pick<LocationFull, 'addresses'>;

const UK_POSTCODE = /^([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})$/;
const US_ZIP = /^(\d{5})(?:-\d{4})?$/;

/** A place name as searches compare it: lower case, one space between words. */
export const placeKey = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** A postal code's forms: the code as written (normalised), and its outward code or five-digit ZIP. */
export function postalForms(code: string): string[] {
  const key = placeKey(code);
  const uk = UK_POSTCODE.exec(key.replace(/\s+/g, ''));
  if (uk) return [`${uk[1]} ${uk[2]}`, uk[1]!];
  const zip = US_ZIP.exec(key);
  if (zip) return [zip[1]!];
  return key === '' ? [] : [key];
}

/** The places of a service offered at these locations; absent when no address names one. */
export function toPlaceFields(locations: readonly (Location | undefined)[]): { places?: string[] } {
  const places = new Set<string>();
  for (const location of locations) {
    for (const address of location?.addresses ?? []) {
      // A postal or virtual address says where letters go, not where the service is.
      if (address.address_type !== undefined && address.address_type !== 'physical') continue;
      for (const name of [address.city, address.region]) {
        const key = typeof name === 'string' ? placeKey(name) : '';
        if (/\p{L}/u.test(key)) places.add(key);
      }
      if (typeof address.postal_code === 'string')
        for (const form of postalForms(address.postal_code)) places.add(form);
    }
  }
  return places.size > 0 ? { places: [...places] } : {};
}
