/**
 * The validation the API serves (POST /validate; src/api/validate/feed-validation.ts is its interface):
 * bodies and, where the server's policy allows, remote URLs, validated as `hsds validate` does.
 * A remote API is read up to `maxItems` items (a request must end), the body's bound is the app's.
 */
import { type RemotePolicy, RemoteRefused } from '../../outbound/index.ts';
import { ZipError, ZipTooLargeError } from './unzip.ts';
import type { ValidationReport } from './validate-items.ts';
import { bodyFormat, validateBody, validateLocation } from './validate-source.ts';

export type FeedValidationOptions = {
  remote: RemotePolicy;
  /** Items read from a remote API at most; default 5000. */
  maxItems?: number;
  /** Issues listed in an answer; default 1000. */
  maxIssues?: number;
  timeoutMs?: number;
  /** DEFAULT_COUNTRY: what an import of the feed would assume, validation assumes too. */
  defaultCountry?: string;
};

type Outcome =
  | { kind: 'validated'; report: ValidationReport }
  | { kind: 'refused'; status: 400 | 403 | 413 | 415; reason: string };

export function createFeedValidation(options: FeedValidationOptions) {
  const maxIssues = options.maxIssues ?? 1000;
  const assumed = options.defaultCountry ? { defaultCountry: options.defaultCountry } : {};
  return {
    async validateBody(
      body: Uint8Array,
      contentType: string | undefined,
      { strict, maxUnpackedBytes }: { strict: boolean; maxUnpackedBytes?: number },
    ): Promise<Outcome> {
      const format = bodyFormat(contentType, body);
      if (!format)
        return {
          kind: 'refused',
          status: 415,
          reason: `Content-Type ${contentType ?? '(none)'} is not a feed: send application/json, application/x-ndjson or application/zip (a zipped data package)`,
        };
      try {
        const report = await validateBody(body, format, {
          strict,
          maxIssues,
          ...assumed,
          ...(maxUnpackedBytes === undefined ? {} : { maxUnpackedBytes }),
        });
        return { kind: 'validated', report };
      } catch (error) {
        if (error instanceof ZipTooLargeError) return { kind: 'refused', status: 413, reason: error.message };
        if (error instanceof ZipError) return { kind: 'refused', status: 400, reason: error.message };
        throw error;
      }
    },
    async validateUrl(url: string, { strict }: { strict: boolean }): Promise<Outcome> {
      // A request names a remote API, never a path on this server (validateLocation reads files
      // and folders for the command line): anything but an absolute http(s) URL is refused.
      if (!isHttpUrl(url))
        return { kind: 'refused', status: 400, reason: 'url must be an absolute http or https URL' };
      try {
        const report = await validateLocation(url, {
          ...assumed,
          strict,
          maxIssues,
          maxItems: options.maxItems ?? 5000,
          remote: options.remote,
          timeoutMs: options.timeoutMs ?? 15_000,
        });
        return { kind: 'validated', report };
      } catch (error) {
        if (error instanceof RemoteRefused) return { kind: 'refused', status: 403, reason: error.message };
        throw error;
      }
    },
  };
}

/** Whether a text is an absolute http(s) URL. */
function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
