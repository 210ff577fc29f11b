import type { Config } from '../../config.ts';

/** The profiles this server can speak: plain HSDS 3.1, or the Open Referral UK profile. */
export const profiles = {
  hsds: { version: '3.1.1', profile: 'https://docs.openreferral.org/en/v3.1.1/' },
  oruk: { version: 'HSDS-UK-3.0', profile: 'https://openreferraluk.org/' },
} as const;

export const OPENAPI_PATH = '/openapi.json';

/** What GET / says; `baseUrl` comes from publicBaseUrl (never from the request's Host). */
export function apiInfo(config: Config, baseUrl: string) {
  const profile = profiles[config.HSDS_PROFILE];
  const publisher = {
    ...(config.PUBLISHER_NAME ? { name: config.PUBLISHER_NAME } : {}),
    ...(config.PUBLISHER_IDENTIFIER ? { identifier: config.PUBLISHER_IDENTIFIER } : {}),
    ...(config.PUBLISHER_EMAIL ? { email: config.PUBLISHER_EMAIL } : {}),
    ...(config.PUBLISHER_WEBSITE ? { website: config.PUBLISHER_WEBSITE } : {}),
    // Configurations built by hand (tests) may predate the variable.
    ...(config.PUBLISHER_ADDITIONAL_WEBSITES?.length
      ? { additional_websites: config.PUBLISHER_ADDITIONAL_WEBSITES.map((url) => ({ url })) }
      : {}),
  };
  return {
    version: profile.version,
    profile: config.PROFILE_URL ?? profile.profile,
    openapi_url: `${baseUrl}${OPENAPI_PATH}`,
    description: config.API_DESCRIPTION,
    ...(Object.keys(publisher).length > 0 ? { publisher } : {}),
    ...(config.DATA_GUIDE_URL ? { data_guide: config.DATA_GUIDE_URL } : {}),
  };
}
