/**
 * Each source's quality and freshness, for operators (`hsds sources`, GET /admin/sources): its last
 * import (when, how it ended, what it counted), its records by type, how old its services'
 * `last_modified` and `assured_date` are, and the share of its services that a person can act on:
 * with a phone, an e-mail, opening times, a located address (a location with coordinates or an
 * address) and a service area. A record belongs to the source that last wrote it (as the store
 * says); what a service has is looked for in everything stored, whoever provided it (a phone
 * another feed added to the service counts). Reads every stored record (as export does).
 * Placeholder organizations (placeholder-organizations.ts) are counted, with the services that
 * name them: each is an organization the feed never described, which people are not shown.
 */

import { type ImportRun, listImportRuns } from '../../engine/control.ts';
import type { Engine } from '../../engine/engine.ts';
import { readAllRecords } from '../../engine/records.ts';
import { isPlaceholderOrganization } from '../../hsds/index.ts';
import type { RecordStoreDocument } from '../../index-mapping/record-store.document.ts';

export type AgeBuckets = {
  within_30_days: number;
  within_365_days: number;
  older: number;
  /** Services that do not say. */
  none: number;
};

export type SourceQuality = {
  source: string;
  last_import?: Pick<ImportRun, 'state' | 'started_at' | 'finished_at' | 'error' | 'counts'>;
  records: Record<string, number>;
  /** Of its organization records, the placeholders stored for organizations no source describes. */
  placeholder_organizations: number;
  services: number;
  /** Of `services`, those whose organization is a placeholder (whoever stored it). */
  services_with_placeholder_organization: number;
  /** Of `services`, how many have each; `shares` says the same as fractions (0 to 1, 2 decimals). */
  services_with: {
    phone: number;
    email: number;
    schedule: number;
    located_address: number;
    service_area: number;
  };
  shares: { phone: number; email: number; schedule: number; located_address: number; service_area: number };
  last_modified: AgeBuckets;
  assured_date: AgeBuckets;
};

const DAY = 86_400_000;

function bucket(buckets: AgeBuckets, value: unknown, now: number): void {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) buckets.none += 1;
  else if (now - time <= 30 * DAY) buckets.within_30_days += 1;
  else if (now - time <= 365 * DAY) buckets.within_365_days += 1;
  else buckets.older += 1;
}

const emptyBuckets = (): AgeBuckets => ({ within_30_days: 0, within_365_days: 0, older: 0, none: 0 });

/** The quality of every source that holds records or was imported, by name. */
export async function sourceQuality(engine: Engine, now: Date = new Date()): Promise<SourceQuality[]> {
  const records = [...(await readAllRecords(engine)).values()];
  const runs = await listImportRuns(engine);
  // Children by the service or service-at-location they hang off, by type.
  const byParent = new Map<string, RecordStoreDocument[]>();
  const locations = new Map<string, RecordStoreDocument>();
  const placeholders = new Set<string>();
  for (const doc of records) {
    if (doc.type === 'location') locations.set(doc.id, doc);
    if (doc.type === 'organization' && isPlaceholderOrganization(doc.record)) placeholders.add(doc.id);
    for (const parent of doc.parent_ids) {
      const list = byParent.get(parent);
      if (list) list.push(doc);
      else byParent.set(parent, [doc]);
    }
  }
  const sources = new Map<string, SourceQuality>();
  const of = (source: string) => {
    let q = sources.get(source);
    if (!q) {
      q = {
        source,
        records: {},
        placeholder_organizations: 0,
        services: 0,
        services_with_placeholder_organization: 0,
        services_with: { phone: 0, email: 0, schedule: 0, located_address: 0, service_area: 0 },
        shares: { phone: 0, email: 0, schedule: 0, located_address: 0, service_area: 0 },
        last_modified: emptyBuckets(),
        assured_date: emptyBuckets(),
      };
      sources.set(source, q);
    }
    return q;
  };
  const addressed = new Set(
    records.filter((r) => r.type === 'address').map((r) => r.record.location_id as string | undefined),
  );
  for (const doc of records) {
    const q = of(doc.source);
    q.records[doc.type] = (q.records[doc.type] ?? 0) + 1;
    if (doc.type === 'organization' && placeholders.has(doc.id)) q.placeholder_organizations += 1;
    if (doc.type !== 'service') continue;
    q.services += 1;
    if (placeholders.has(doc.record.organization_id as string)) q.services_with_placeholder_organization += 1;
    bucket(q.last_modified, doc.record.last_modified, now.getTime());
    bucket(q.assured_date, doc.record.assured_date, now.getTime());
    const children = byParent.get(doc.id) ?? [];
    const atLocations = children.filter((c) => c.type === 'service_at_location');
    const reach = [...children, ...atLocations.flatMap((sal) => byParent.get(sal.id) ?? [])];
    const located = atLocations.some((sal) => {
      const location = locations.get(sal.record.location_id as string);
      if (!location) return false;
      const { latitude, longitude } = location.record;
      return (typeof latitude === 'number' && typeof longitude === 'number') || addressed.has(location.id);
    });
    const has = {
      phone: reach.some((c) => c.type === 'phone'),
      email:
        typeof doc.record.email === 'string' ||
        reach.some((c) => c.type === 'contact' && typeof c.record.email === 'string'),
      schedule: reach.some((c) => c.type === 'schedule'),
      located_address: located,
      service_area: reach.some((c) => c.type === 'service_area'),
    };
    for (const key of Object.keys(has) as (keyof typeof has)[]) if (has[key]) q.services_with[key] += 1;
  }
  for (const run of runs) {
    const { state, started_at, finished_at, error, counts } = run;
    of(run.source).last_import = {
      state,
      started_at,
      ...(finished_at ? { finished_at } : {}),
      ...(error ? { error } : {}),
      ...(counts ? { counts } : {}),
    };
  }
  for (const q of sources.values()) {
    for (const key of Object.keys(q.shares) as (keyof SourceQuality['shares'])[])
      q.shares[key] = q.services === 0 ? 0 : Math.round((q.services_with[key] / q.services) * 100) / 100;
  }
  return [...sources.values()].sort((a, b) => a.source.localeCompare(b.source));
}

const pct = (share: number) => `${Math.round(share * 100)}%`.padStart(5);

/** The terminal table of `hsds sources`. */
export function formatSourceQuality(sources: readonly SourceQuality[]): string {
  if (sources.length === 0) return 'No source has been imported.';
  const lines: string[] = [];
  for (const q of sources) {
    const run = q.last_import;
    lines.push(`${q.source}`);
    lines.push(
      run
        ? `  last import: ${run.state}, ${run.finished_at ?? run.started_at}` +
            (run.counts
              ? ` (${run.counts.items} items, ${run.counts.records} records, ${run.counts.repaired} repaired, ${run.counts.rejected} rejected)`
              : '') +
            (run.error ? `: ${run.error}` : '')
        : '  last import: none recorded (written through the API, or before imports were recorded)',
    );
    const types = Object.entries(q.records)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    lines.push(`  records: ${types || 'none'}`);
    if (q.placeholder_organizations > 0 || q.services_with_placeholder_organization > 0) {
      lines.push(
        `  placeholder organizations: ${q.placeholder_organizations} stored; ${q.services_with_placeholder_organization} services name an organization no source describes (not shown to people)`,
      );
    }
    if (q.services > 0) {
      lines.push(
        `  services: ${q.services}; with phone${pct(q.shares.phone)}, e-mail${pct(q.shares.email)}, opening times${pct(q.shares.schedule)}, located address${pct(q.shares.located_address)}, service area${pct(q.shares.service_area)}`,
      );
      const age = (b: AgeBuckets) =>
        `${b.within_30_days} within 30 days, ${b.within_365_days} within a year, ${b.older} older, ${b.none} not said`;
      lines.push(`  last_modified: ${age(q.last_modified)}`);
      lines.push(`  assured_date:  ${age(q.assured_date)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
