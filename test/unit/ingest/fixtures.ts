import { readFileSync } from 'node:fs';
import {
  organizationFullSchema,
  type ServiceFull,
  serviceFullSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
} from '../../../src/hsds/index.ts';
import { generateDataset } from '../../../src/synthetic/generate.ts';

const examples = new URL('../../fixtures/hsds/examples/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, examples), 'utf8'));

/** The official examples, validated by the schemas the code uses (docs/style.md 21). */
export const officialService = (): ServiceFull => serviceFullSchema.parse(read('service_full.json'));
export const officialOrganization = () => organizationFullSchema.parse(read('organization_full.json'));
export const officialTaxonomy = () => taxonomyFullSchema.parse(read('taxonomy.json'));
export const officialTerm = () => taxonomyTermFullSchema.parse(read('taxonomy_term.json'));
export const officialExample = read;

/** A few synthetic services (real Aberdeen geometry, several locations and areas). */
export function syntheticServices(count = 40): ServiceFull[] {
  return [...generateDataset({ services: count, seed: 11 }).services()].map((s) =>
    serviceFullSchema.parse(s),
  );
}
