import { describe, expect, it } from 'vitest';
import { toOrganizationDocument } from '../../../src/index-mapping/organization.document.ts';
import { type ReadIndex, readIndexMappings } from '../../../src/index-mapping/read-indices.mapping.ts';
import {
  recordStoreMapping,
  toRecordStoreDocument,
} from '../../../src/index-mapping/record-store.document.ts';
import { toServiceDocument } from '../../../src/index-mapping/service.document.ts';
import {
  coverageOf,
  serviceCoverageOf,
  toServiceAtLocationDocument,
} from '../../../src/index-mapping/service-at-location.document.ts';
import { toTaxonomyDocument, toTaxonomyTermDocument } from '../../../src/index-mapping/taxonomy.document.ts';
import { geometryFromExtent } from '../../../src/ingest/publish/read-indices.writer.ts';
import { flattenNested } from '../../../src/ingest/records/flatten.ts';
import { parentIdsOf } from '../../../src/ingest/records/nesting.ts';
import { generateDataset } from '../../../src/synthetic/generate.ts';
import {
  officialOrganization,
  officialService,
  officialTaxonomy,
  officialTerm,
  syntheticServices,
} from '../ingest/fixtures.ts';

type Mapping = { type?: string; properties?: Record<string, Mapping>; enabled?: boolean };

const valueTypes: Record<string, (v: unknown) => boolean> = {
  keyword: (v) => typeof v === 'string',
  text: (v) => typeof v === 'string',
  date: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  integer: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  geo_point: (v) => typeof v === 'object' && v !== null && 'lat' in v && 'lon' in v,
  geo_shape: (v) => typeof v === 'object' && v !== null && 'type' in v,
  completion: (v) =>
    typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as { input?: unknown }).input) &&
    (v as { input: unknown[] }).input.every((i) => typeof i === 'string'),
};

/** Every field path a document has that its mapping does not map, or maps with another type. */
function unmapped(doc: unknown, properties: Record<string, Mapping>, path = ''): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    const field = `${path}${key}`;
    const mapping = properties[key];
    if (!mapping) {
      problems.push(`${field} is not mapped`);
      continue;
    }
    if (mapping.enabled === false) continue; // stored only (the record)
    for (const item of Array.isArray(value) ? value : [value]) {
      if (mapping.properties) {
        problems.push(...unmapped(item, mapping.properties, `${field}.`));
      } else {
        const check = valueTypes[mapping.type ?? ''];
        if (!check) problems.push(`${field} has mapping type ${mapping.type}, which this test does not know`);
        else if (!check(item))
          problems.push(`${field} = ${JSON.stringify(item)} does not fit ${mapping.type}`);
      }
    }
  }
  return problems;
}

const services = [officialService(), ...syntheticServices(60)];

function documentsOf(kind: ReadIndex): unknown[] {
  switch (kind) {
    case 'services':
      return services.map((s) => toServiceDocument(s, serviceCoverageOf(s, geometryFromExtent)));
    case 'service_at_locations':
      return services.flatMap((s) =>
        (s.service_at_locations ?? []).map((sal) =>
          toServiceAtLocationDocument(sal, s, coverageOf(sal, s, geometryFromExtent)),
        ),
      );
    case 'organizations':
      return [
        toOrganizationDocument(officialOrganization(), {
          service_ids: ['a'],
          taxonomy_term_ids: ['b'],
          taxonomy_ids: ['c'],
          last_modified: '2024-01-01T00:00:00Z',
        }),
        ...services.flatMap((s) =>
          s.organization
            ? [
                toOrganizationDocument(s.organization, {
                  service_ids: [s.id],
                  taxonomy_term_ids: [],
                  taxonomy_ids: [],
                }),
              ]
            : [],
        ),
      ];
    case 'taxonomies':
      return [officialTaxonomy(), ...generateDataset({ services: 0, seed: 1 }).taxonomies].map((t) =>
        toTaxonomyDocument(t),
      );
    case 'taxonomy_terms':
      return [officialTerm(), ...generateDataset({ services: 0, seed: 1 }).taxonomyTerms].map((t) =>
        toTaxonomyTermDocument(t),
      );
  }
}

describe('every field a document builder emits is mapped, with a fitting type', () => {
  it.each(Object.keys(readIndexMappings) as ReadIndex[])('%s', (kind) => {
    const docs = documentsOf(kind);
    expect(docs.length).toBeGreaterThan(0);
    const problems = new Set(
      docs.flatMap((doc) => unmapped(doc, readIndexMappings[kind].properties as never)),
    );
    expect([...problems]).toEqual([]);
  });

  it('the builders exercise every search field of services and service_at_locations', () => {
    const seen = new Set(documentsOf('service_at_locations').flatMap((d) => Object.keys(d as object)));
    for (const [field, mapping] of Object.entries(readIndexMappings.service_at_locations.properties)) {
      // A constant_keyword is the mapping's own value: documents never carry it.
      if ((mapping as { type?: string }).type === 'constant_keyword') continue;
      expect(seen, field).toContain(field);
    }
  });

  it('the records store', () => {
    const flat = flattenNested('service', officialService(), 'test').records;
    const synthetic = services.slice(1, 10).flatMap((s) => flattenNested('service', s, 'test').records);
    const docs = [...flat, ...synthetic].map((r) =>
      toRecordStoreDocument(r.type, r.id, r.record, parentIdsOf(r.type, r.record), 'test', r.geometry),
    );
    expect(docs.some((d) => d.geometry)).toBe(true);
    const problems = new Set(docs.flatMap((doc) => unmapped(doc, recordStoreMapping.properties as never)));
    expect([...problems]).toEqual([]);
  });
});
