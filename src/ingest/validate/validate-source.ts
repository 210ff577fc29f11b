/**
 * What to validate, read the way import reads it: a file or folder (HSDS JSON or NDJSON, a tabular
 * data package), a remote HSDS API by URL (its records, and a conformance summary of its
 * endpoints), or a request body (JSON, NDJSON, or a zipped data package), which is written to a
 * temporary folder, read, and removed.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRemoteUrl, guardedFetch, type RemotePolicy, RemoteRefused } from '../../outbound/index.ts';
import { detectSourceKind, isUrl, openSource } from '../import/import-source.ts';
import { readRemoteSource } from '../sources/remote.source.ts';
import type { SourceItem } from '../sources/source.ts';
import { checkConformance } from './conformance.ts';
import { unzipTo } from './unzip.ts';
import { setVerdict, type ValidationReport, validateItems } from './validate-items.ts';

export type ValidateSourceOptions = {
  strict?: boolean;
  defaultCountry?: string;
  maxIssues?: number;
  maxItems?: number;
  /** Remote URLs: `any` for the command line (the operator's own network), a setting for the API. */
  remote?: RemotePolicy;
  /** Per request to a remote API. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** Validates a file, a folder, or (where `remote` allows) a remote HSDS API; writes nothing. */
export async function validateLocation(
  location: string,
  options: ValidateSourceOptions = {},
): Promise<ValidationReport> {
  const common = {
    ...(options.strict ? { strict: true } : {}),
    ...(options.defaultCountry ? { defaultCountry: options.defaultCountry } : {}),
    ...(options.maxIssues !== undefined ? { maxIssues: options.maxIssues } : {}),
    ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  if (!isUrl(location)) {
    const kind = await detectSourceKind(location);
    return validateItems(openSource(location, kind, { strict: options.strict ?? false }), {
      source: location,
      kind,
      ...common,
    });
  }
  const policy = options.remote ?? 'off';
  await checkRemoteUrl(location, policy);
  const fetcher = guardedFetch(policy);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const items = readRemoteSource(location, {
    fetch: fetcher,
    timeoutMs,
    retries: 1,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let report: ValidationReport;
  try {
    report = await validateItems(items, { source: location, kind: 'remote', ...common });
  } catch (error) {
    if (options.signal?.aborted || error instanceof RemoteRefused) throw error;
    // The harvest gave up (unreachable, timing out, not HSDS): not valid, and the endpoints say why.
    report = await validateItems(unreadable(location, (error as Error).message), {
      source: location,
      kind: 'remote',
      ...common,
    });
  }
  report.conformance = await checkConformance(location, fetcher, timeoutMs);
  setVerdict(report);
  return report;
}

async function* unreadable(source: string, reason: string): AsyncGenerator<SourceItem> {
  yield { kind: 'issue', issue: { severity: 'error', kind: 'unreadable', source, path: '', reason } };
}

export type BodyFormat = 'json' | 'ndjson' | 'zip';

/** The body's format from its Content-Type, else from its first bytes. */
export function bodyFormat(contentType: string | undefined, body: Uint8Array): BodyFormat | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (/zip/.test(type)) return 'zip';
  if (/ndjson|jsonl|json-seq/.test(type)) return 'ndjson';
  if (/json/.test(type)) return 'json';
  if (body[0] === 0x50 && body[1] === 0x4b) return 'zip'; // "PK"
  const first = Buffer.from(body.subarray(0, 64)).toString('utf8').trimStart()[0];
  return first === '[' || first === '{' ? 'json' : undefined;
}

/** Validates a request body: HSDS JSON, NDJSON, or a zipped tabular data package. */
export async function validateBody(
  body: Uint8Array,
  format: BodyFormat,
  options: ValidateSourceOptions & { name?: string; maxUnpackedBytes?: number } = {},
): Promise<ValidationReport> {
  const dir = await mkdtemp(join(tmpdir(), 'hsds-validate-'));
  try {
    let location: string;
    if (format === 'zip') {
      location = join(dir, 'package');
      await unzipTo(body, location, options.maxUnpackedBytes);
      // Zipping a folder puts it at the top of the archive: the package is inside it.
      const top = await readdir(location, { withFileTypes: true });
      if (top.length === 1 && top[0]!.isDirectory()) location = join(location, top[0]!.name);
    } else {
      location = join(dir, format === 'ndjson' ? 'body.ndjson' : 'body.json');
      await writeFile(location, body);
    }
    const report = await validateLocation(location, { ...options, remote: 'off' });
    // Name the body, not the temporary folder, in the answer.
    const name = options.name ?? '(body)';
    const rename = (text: string) => text.split(location).join(name);
    report.source = name;
    for (const issue of report.issues) issue.source = rename(issue.source);
    return report;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
