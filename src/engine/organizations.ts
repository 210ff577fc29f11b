/**
 * Organizations with their `services`, read from the services index: the join the organization
 * endpoints serve, behind two read functions so the routes only answer.
 */
import { buildOrganizationServicesSearch } from '../index-mapping/service-search.query.ts';
import type { Engine } from './engine.ts';
import { collectRecords, getRecord, type JsonRecord } from './search.ts';

/**
 * The services of these organizations (one search for all of them), by organization id: fully
 * nested with `full`, else id, name and status, the fields the HSDS organization schema requires
 * of each.
 */
async function servicesOf(engine: Engine, ids: string[], full: boolean): Promise<Map<string, JsonRecord[]>> {
  const byOrganization = new Map<string, JsonRecord[]>();
  if (ids.length === 0) return byOrganization;
  for (const service of await collectRecords(engine, buildOrganizationServicesSearch(ids, full))) {
    const owner = service.organization_id;
    if (typeof owner !== 'string') continue;
    if (!full) delete service.organization_id;
    const list = byOrganization.get(owner);
    if (list) list.push(service);
    else byOrganization.set(owner, [service]);
  }
  return byOrganization;
}

/**
 * A page (or stream batch) of organizations, as texts, with their `services`; a tombstone stays
 * as it is.
 */
export async function withServices(engine: Engine, texts: string[], full: boolean): Promise<string[]> {
  const organizations = texts.map((text) => JSON.parse(text) as JsonRecord);
  const ids = organizations.map((o) => o.id).filter((id): id is string => typeof id === 'string');
  const services = await servicesOf(engine, ids, full);
  return organizations.map((o, i) =>
    o.deleted === true
      ? (texts[i] as string)
      : JSON.stringify({ ...o, services: services.get(o.id as string) ?? [] }),
  );
}

/** One organization, fully nested, with its `services` (EngineNotFoundError when unknown). */
export async function getOrganizationWithServices(
  engine: Engine,
  id: string,
  full: boolean,
): Promise<JsonRecord> {
  const [organization, services] = await Promise.all([
    getRecord(engine, 'organizations', id),
    servicesOf(engine, [id], full),
  ]);
  return { ...organization, services: services.get(id) ?? [] };
}
