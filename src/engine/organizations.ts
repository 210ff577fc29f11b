/**
 * Organizations with their `services`, read from the services index: the join the organization
 * endpoints serve, behind two read functions so the routes only answer.
 *
 * The join is made on texts: each service is parsed only to learn its organization (and, brief,
 * to drop that field), then kept as text and spliced into its organization's text. A page of 1000
 * organizations with fully nested services is about 25 MB of JSON on 3,000 services: held as
 * parsed objects it took several times that, and 16 such pages at once took the API down at a
 * 256 MB heap.
 */
import { buildOrganizationServicesSearch } from '../index-mapping/service-search.query.ts';
import type { Engine } from './engine.ts';
import { collectTexts, getRecord, type JsonRecord, type ReadBudget } from './search.ts';

/**
 * The services of these organizations (one search for all of them) as texts, by organization id:
 * fully nested with `full`, else id, name and status, the fields the HSDS organization schema
 * requires of each.
 */
async function servicesOf(
  engine: Engine,
  ids: string[],
  full: boolean,
  budget?: ReadBudget,
): Promise<Map<string, string[]>> {
  const byOrganization = new Map<string, string[]>();
  if (ids.length === 0) return byOrganization;
  // Batch by batch: the event loop serves other requests between two batches.
  for await (const texts of collectTexts(engine, buildOrganizationServicesSearch(ids, full), budget)) {
    for (const text of texts) {
      const service = JSON.parse(text) as JsonRecord;
      const owner = service.organization_id;
      if (typeof owner !== 'string') continue;
      let kept = text;
      if (!full) {
        delete service.organization_id;
        kept = JSON.stringify(service);
      }
      const list = byOrganization.get(owner);
      if (list) list.push(kept);
      else byOrganization.set(owner, [kept]);
    }
  }
  return byOrganization;
}

/** An organization's text with `services` added at its end (its stored record has none). */
function withServicesText(organization: string, services: readonly string[]): string {
  const body = organization.slice(0, organization.lastIndexOf('}')).trimEnd();
  const list = `"services":[${services.join(',')}]`;
  return body.endsWith('{') ? `${body}${list}}` : `${body},${list}}`;
}

const idOf = (text: string): string | undefined => {
  const { id, deleted } = JSON.parse(text) as JsonRecord;
  return deleted === true || typeof id !== 'string' ? undefined : id;
};

/**
 * A page (or stream batch) of organizations, as texts, with their `services`; a tombstone stays
 * as it is. With a budget, the services read count against it (src/api/lists/large-pages.ts).
 */
export async function withServices(
  engine: Engine,
  texts: string[],
  full: boolean,
  budget?: ReadBudget,
): Promise<string[]> {
  const ids = texts.map(idOf);
  const services = await servicesOf(
    engine,
    ids.filter((id): id is string => id !== undefined),
    full,
    budget,
  );
  return texts.map((text, i) => {
    const id = ids[i];
    return id === undefined ? text : withServicesText(text, services.get(id) ?? []);
  });
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
  return {
    ...organization,
    services: (services.get(id) ?? []).map((text) => JSON.parse(text) as JsonRecord),
  };
}
