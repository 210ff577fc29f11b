/**
 * Who a service is for and how it can be reached, as searchable fields (`age`, `language`, `free`,
 * `accessibility`): languages of the service, its locations and their phones; whether it is free;
 * the accessibility records of its locations. Pure: nested HSDS in, fields out.
 */
import type { LocationFull, ServiceFull } from '../hsds/index.ts';

export type EligibilityFields = {
  /** Codes and names of the languages, lower-cased: what `language=` matches. */
  languages?: string[];
  /** One value a language, its code else its name, lower-cased: the `language` facet. */
  language_codes?: string[];
  /** A cost option of amount 0, or one (or the fees) that says it is free; absent when nothing says. */
  free?: boolean;
  /** Descriptions and details of the locations' accessibility records. */
  accessibility?: string[];
};

type Language = { code?: string | undefined; name?: string | undefined };
type Location = Pick<LocationFull, 'languages' | 'phones' | 'accessibility'>;

// "Free", "free of charge", "no charge", "no cost": the words feeds use; "not free" is not.
const SAYS_FREE = /(?<!not\s)\b(free|no charge|no cost|without charge)\b/i;

function languagesOf(service: ServiceFull, locations: readonly (Location | undefined)[]): Language[] {
  const phones = [...(service.phones ?? []), ...locations.flatMap((l) => l?.phones ?? [])];
  return [
    ...(service.languages ?? []),
    ...locations.flatMap((l) => l?.languages ?? []),
    ...phones.flatMap((p) => p.languages ?? []),
  ];
}

/** Whether the service says it is free: a zero amount, or "free" in a cost option or its fees. */
export function isFree(service: ServiceFull): boolean | undefined {
  const options = service.cost_options ?? [];
  if (options.some((o) => o.amount === 0)) return true;
  const texts = [
    ...options.flatMap((o) => [o.option, o.amount_description]),
    service.fees_description,
  ].filter((t): t is string => typeof t === 'string');
  if (texts.some((t) => SAYS_FREE.test(t))) return true;
  const charged = options.some((o) => typeof o.amount === 'number' && o.amount > 0);
  return charged || texts.some((t) => /\bnot free\b/i.test(t)) ? false : undefined;
}

const lower = (text: string | undefined) => text?.trim().toLowerCase() || undefined;
const distinct = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))];

/** The eligibility and access fields of a service offered at these locations. */
export function toEligibilityFields(
  service: ServiceFull,
  locations: readonly (Location | undefined)[],
): EligibilityFields {
  const languages = languagesOf(service, locations);
  const names = distinct(languages.flatMap((l) => [lower(l.code), lower(l.name)]));
  const codes = distinct(languages.map((l) => lower(l.code) ?? lower(l.name)));
  const accessibility = distinct(
    locations.flatMap((l) =>
      (l?.accessibility ?? []).flatMap((a) => [a.description?.trim(), a.details?.trim()]),
    ),
  );
  const free = isFree(service);
  return {
    ...(names.length > 0 ? { languages: names, language_codes: codes } : {}),
    ...(free === undefined ? {} : { free }),
    ...(accessibility.length > 0 ? { accessibility } : {}),
  };
}
