import { z } from '@hono/zod-openapi';

// Builders for the string formats HSDS uses. They are functions, not shared instances, so that each
// field's `.openapi({ description })` decorates its own schema. Every check is a single regex or
// `URL.canParse`: ingest validates thousands of records a second, so no refinements here.

/**
 * `format: uuid`. RFC 4122's string grammar (8-4-4-4-12 hex digits) with any version or variant:
 * the official examples mix v1 and v4 ids, and the official JSON Schema, as ajv-formats checks it,
 * accepts any such string. Rejecting by version bits would reject data the official validator passes.
 */
export const uuidString = () => z.guid({ error: 'Invalid UUID' });

/**
 * The schemes a URI field may hold: web pages, e-mail and phone. Every URI field of HSDS is a link
 * someone follows (a website, a logo, a document, a virtual location); a `javascript:` or `data:`
 * URL would run code in the page of whoever shows it. Checked on the scheme as the WHATWG URL
 * parser reads it (`JavaScript:`, `java\tscript:` are `javascript:`).
 */
export const LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
const linkScheme = new RegExp(`^(?:${LINK_SCHEMES.join('|')})$`);
export const LINK_SCHEMES_TEXT = 'http, https, mailto or tel';

/**
 * `format: uri`: an absolute URI (scheme required), as the WHATWG URL parser accepts it, of one of
 * LINK_SCHEMES (the JSON Schema stays `format: uri`).
 */
export const uriString = () =>
  z.url({
    protocol: linkScheme,
    error: (issue) =>
      typeof issue.input === 'string' && URL.canParse(issue.input)
        ? `not an ${LINK_SCHEMES_TEXT} link`
        : 'Invalid URI',
  });

/** `format: email`. */
export const emailString = () => z.email({ error: 'Invalid email address' });

/** `format: date-time` (RFC 3339): date, `T`, time with seconds, and `Z` or a numeric offset. */
export const dateTimeString = () => z.iso.datetime({ offset: true, error: 'Invalid date-time (RFC 3339)' });

/**
 * A field the HSDS 3.1 JSON Schema leaves a plain string while the tabular form (the data package)
 * types it as a `date`: `assured_date`, `valid_from`, `dtstart`... JSON accepts any string here
 * (`"January 2021"` is schema-valid 3.1 JSON), so the JSON schemas do too; tabular rows are
 * validated with `tabularDateString` (see `tabularTypedFields` in tabular.schema.ts).
 */
export const dateString = () => z.string();

/** Tabular type `date`: YYYY-MM-DD. */
export const tabularDateString = () => z.iso.date({ error: 'Invalid date (YYYY-MM-DD)' });

// HH:MM with optional seconds and fraction, optionally followed by `Z` or an offset. The schedule
// descriptions ask for HH:MM "with timezone information" (e.g. 09:00-05:00) while the official
// examples use 10:00:00 with none, so both are accepted.
const timePattern = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

export const isTabularTime = (value: string) => timePattern.test(value);

/** `opens_at`, `closes_at`: a plain string in 3.1 JSON (`"9:00am"` is schema-valid), like `dateString`. */
export const timeString = () => z.string();

/** Tabular type `time`: HH:MM[:SS[.fff]] with optional `Z` or UTC offset. */
// No `format: 'time'` in the document: JSON Schema's time format demands a UTC offset, while the
// official HSDS schema declares none and its examples use plain '10:00:00'.
export const tabularTimeString = () =>
  z.string().regex(timePattern, { error: 'Invalid time (HH:MM[:SS] with optional offset)' });
