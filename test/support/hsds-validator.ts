/**
 * Validates API responses against the official HSDS JSON Schemas (draft 2020-12), from the copies
 * vendored in test/fixtures/hsds: the HSDS 3.1.1 modular schemas, the compiled 3.1 list-item and
 * full-service schemas, the Page of the official openapi.json, and the Open Referral UK profile's
 * schemas. The zod schemas that generate our OpenAPI document are ours; these are the standard's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const fixtures = new URL('../fixtures/hsds/', import.meta.url);
const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(path, fixtures), 'utf8')) as Record<string, unknown>;

export type HsdsShape =
  | 'service'
  | 'service_list_item'
  | 'service_at_location'
  | 'service_at_location_list_item'
  | 'organization'
  | 'organization_list_item'
  | 'taxonomy'
  | 'taxonomy_term'
  | 'page';

type Profile = 'hsds' | 'oruk';

// Which official schema judges which shape. Modular schemas are registered under a base URI so
// their relative `$ref`s ("attribute.json") resolve among themselves.
const schemaFiles: Record<Profile, Record<Exclude<HsdsShape, 'page'>, string>> = {
  hsds: {
    service: 'compiled/service_with_definitions.json',
    service_list_item: 'compiled/service_list.json',
    service_at_location: 'schema/service_at_location.json',
    service_at_location_list_item: 'compiled/service_at_location_list.json',
    organization: 'schema/organization.json',
    organization_list_item: 'compiled/organization_list.json',
    taxonomy: 'schema/taxonomy.json',
    taxonomy_term: 'schema/taxonomy_term.json',
  },
  oruk: {
    service: 'oruk/schema/compiled/service.json',
    service_list_item: 'oruk/schema/compiled/service_list.json',
    service_at_location: 'oruk/schema/compiled/service_at_location.json',
    service_at_location_list_item: 'oruk/schema/compiled/service_at_location_list.json',
    organization: 'oruk/schema/compiled/organization.json',
    organization_list_item: 'oruk/schema/compiled/organization_list.json',
    taxonomy: 'oruk/schema/taxonomy.json',
    taxonomy_term: 'oruk/schema/taxonomy_term.json',
  },
};

function createAjv(): Ajv2020 {
  // strict: false: the HSDS schemas carry their own keywords (name, constraints, core, example...).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  for (const folder of ['schema/', 'oruk/schema/']) {
    for (const file of readdirSync(new URL(folder, fixtures))) {
      if (!file.endsWith('.json') || file.startsWith('openapi')) continue;
      const schema = readJson(folder + file);
      if (schema && typeof schema === 'object') {
        ajv.addSchema({ ...schema, $id: `https://hsds.test/${folder}${file}` });
      }
    }
  }
  return ajv;
}

let shared: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(profile: Profile, shape: HsdsShape): ValidateFunction {
  const key = `${profile}:${shape}`;
  const known = compiled.get(key);
  if (known) return known;
  shared ??= createAjv();
  let validate: ValidateFunction;
  if (shape === 'page') {
    const openapi = readJson(profile === 'oruk' ? 'oruk/schema/openapi.json' : 'schema/openapi.json') as {
      components: { schemas: { Page: object } };
    };
    validate = shared.compile(openapi.components.schemas.Page);
  } else {
    const file = schemaFiles[profile][shape];
    const id = `https://hsds.test/${file}`;
    validate = shared.getSchema(id) ?? shared.compile({ ...readJson(file), $id: id });
  }
  compiled.set(key, validate);
  return validate;
}

/** The problems of a value against the official schema of a shape; empty when it is valid. */
export function hsdsErrors(shape: HsdsShape, value: unknown, profile: Profile = 'hsds'): string[] {
  const validate = validatorFor(profile, shape);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

/** Throws, naming every problem, unless the value is valid. */
export function assertHsds(shape: HsdsShape, value: unknown, profile: Profile = 'hsds'): void {
  const errors = hsdsErrors(shape, value, profile);
  if (errors.length > 0) {
    const id = value && typeof value === 'object' && 'id' in value ? ` (id ${String(value.id)})` : '';
    throw new Error(`not a valid HSDS ${shape}${id}:\n  ${errors.slice(0, 10).join('\n  ')}`);
  }
}

/** A page: the Page schema, then every item of `contents` against the item shape. */
export function assertHsdsPage(
  itemShape: Exclude<HsdsShape, 'page'>,
  page: { contents?: unknown[] },
  profile: Profile = 'hsds',
): void {
  assertHsds('page', page, profile);
  for (const item of page.contents ?? []) assertHsds(itemShape, item, profile);
}
