import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { serviceFullSchema, taxonomyTermFullSchema } from '../../../src/hsds/index.ts';
import { generateDataset } from '../../../src/synthetic/generate.ts';

// Generated records are held to the official HSDS 3.1 JSON Schemas vendored in test/fixtures/hsds
// (see its README), and to the project's own zod schemas, so the generator cannot drift from either.

const readFixture = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/hsds/${path}`, import.meta.url), 'utf8'));

// ajv-formats is CommonJS with `module.exports = plugin`; under NodeNext its default import is
// typed as the module record, so take the plugin's declared type explicitly.
const addFormats = formatsModule as unknown as typeof formatsModule.default;

// The official schemas carry Frictionless Data keywords (name, constraints, datapackage_metadata...)
// that JSON Schema does not define; strict mode would refuse them.
const createValidator = () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
};

const dataset = generateDataset({ services: 400, seed: 'schema' });
const services = [...dataset.services()];

describe('synthetic data against the official HSDS schemas', () => {
  it('every sampled service is a valid compiled HSDS service (service_with_definitions.json)', () => {
    const validate = createValidator().compile(readFixture('compiled/service_with_definitions.json'));
    const failures = services.flatMap((service) => {
      const { id } = service; // read before validate(), whose type guard narrows a failure to never
      return validate(service) ? [] : [`${id}: ${JSON.stringify(validate.errors?.slice(0, 3))}`];
    });
    expect(failures).toEqual([]);
  });

  it('the schema refuses a broken service, so the check above can fail', () => {
    const validate = createValidator().compile(readFixture('compiled/service_with_definitions.json'));
    const broken = { ...services[0]!, status: 'open', id: 'not-a-uuid' };
    expect(validate(broken)).toBe(false);
  });

  it('taxonomies and taxonomy terms are valid against taxonomy.json and taxonomy_term.json', () => {
    const ajv = createValidator();
    ajv.addSchema(readFixture('schema/metadata.json'), 'metadata.json');
    ajv.addSchema(readFixture('schema/taxonomy.json'), 'taxonomy.json');
    const validateTaxonomy = ajv.getSchema('taxonomy.json')!;
    const validateTerm = ajv.compile(readFixture('schema/taxonomy_term.json'));
    for (const taxonomy of dataset.taxonomies)
      expect(validateTaxonomy(taxonomy), JSON.stringify(validateTaxonomy.errors)).toBe(true);
    for (const term of dataset.taxonomyTerms)
      expect(validateTerm(term), JSON.stringify(validateTerm.errors)).toBe(true);
    expect(validateTerm({ id: dataset.taxonomyTerms[0]!.id, name: 'no description' })).toBe(false);
  });

  it('services and terms parse with the project zod schemas, unchanged', () => {
    for (const service of services.slice(0, 100)) {
      const parsed = serviceFullSchema.safeParse(service);
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
    for (const term of dataset.taxonomyTerms)
      expect(taxonomyTermFullSchema.safeParse(term).success).toBe(true);
  });
});
