import { parse as parseUkPostcode, validOutcode } from 'postcode';

export type PostalCodeKind = 'uk-postcode' | 'uk-outcode' | 'us-zip';

/**
 * A postal code in normal form. `normalised` is unique across kinds (UK codes start with a letter,
 * ZIP codes are digits; a full UK postcode has a space, an outcode has none), so it serves as the
 * key for caches and bulk results.
 */
export type PostalCode = {
  kind: PostalCodeKind;
  /** 'AB10 1AB' for a full UK postcode, 'AB10' for an outcode, '12345' for a ZIP or ZIP+4. */
  normalised: string;
  /** The outward code of a UK postcode or outcode ('AB10'). */
  outcode?: string;
};

export type PostalCodeParseResult = { ok: true; value: PostalCode } | { ok: false; reason: string };

// ZIP+4 narrows to a delivery segment; the centroid data is per five-digit ZIP, so the +4 is dropped.
const US_ZIP = /^(\d{5})(?:-\d{4})?$/;
// Longer than any postal code with generous spacing: refuse early instead of echoing a novel back.
const MAX_INPUT_LENGTH = 16;

/**
 * Reads a UK postcode ('ab101ab', 'AB10 1AB'), a UK outcode ('AB10') or a US ZIP ('12345',
 * '12345-6789'). Case and surrounding or repeated spaces are forgiven; letters and digits are not
 * guessed at (no O/0 swapping), so a typo is reported rather than geocoded somewhere else.
 */
export function parsePostalCode(input: string): PostalCodeParseResult {
  const cleaned = input.trim().replace(/\s+/g, ' ').toUpperCase();
  if (cleaned === '') return { ok: false, reason: 'postal code is empty' };
  if (cleaned.length > MAX_INPUT_LENGTH) {
    return { ok: false, reason: `postal code is too long (${cleaned.length} characters)` };
  }

  const zip = US_ZIP.exec(cleaned);
  if (zip) return { ok: true, value: { kind: 'us-zip', normalised: zip[1]! } };

  const uk = parseUkPostcode(cleaned);
  if (uk.valid) {
    return { ok: true, value: { kind: 'uk-postcode', normalised: uk.postcode, outcode: uk.outcode } };
  }
  if (!cleaned.includes(' ') && validOutcode(cleaned)) {
    return { ok: true, value: { kind: 'uk-outcode', normalised: cleaned, outcode: cleaned } };
  }
  return {
    ok: false,
    reason: `"${cleaned}" is not a UK postcode (e.g. AB10 1AB), UK outcode (e.g. AB10) or US ZIP code (e.g. 12345)`,
  };
}

/** The precision a centroid must have to count as an exact answer for this code. */
export function expectedPrecision(code: PostalCode): 'postcode' | 'outcode' | 'zip' {
  if (code.kind === 'uk-postcode') return 'postcode';
  if (code.kind === 'uk-outcode') return 'outcode';
  return 'zip';
}
