import { readdirSync, readFileSync } from 'node:fs';

// The vendored official HSDS files (test/fixtures/hsds, see its README).
const fixturesDir = new URL('../../fixtures/hsds/', import.meta.url);

export const readFixtureText = (path: string): string => readFileSync(new URL(path, fixturesDir), 'utf8');

export const readFixtureJson = (path: string): unknown => JSON.parse(readFixtureText(path));

export const listFixtureFiles = (dir: string, extension: string): string[] =>
  readdirSync(new URL(dir, fixturesDir))
    .filter((name) => name.endsWith(extension))
    .sort();

export type OfficialProperty = {
  type?: string;
  format?: string;
  datapackage_type?: string;
  enum?: string[];
  items?: unknown;
  $ref?: string;
};

export type OfficialSchema = {
  name: string;
  path: string;
  description: string;
  properties: Record<string, OfficialProperty>;
  required?: string[];
  tabular_required?: string[];
};

/** The official HSDS 3.1.1 modular schema of one object. */
export const readOfficialSchema = (name: string): OfficialSchema =>
  readFixtureJson(`schema/${name}.json`) as OfficialSchema;

/** Names of all official object schemas (every schema/*.json but the OpenAPI documents). */
export const officialSchemaNames = (): string[] =>
  listFixtureFiles('schema/', '.json')
    .filter((name) => !name.startsWith('openapi'))
    .map((name) => name.replace(/\.json$/, ''));

/** A scalar property: one tabular column, as opposed to a nested object or array. */
export const isScalar = (property: OfficialProperty): boolean =>
  property.type === 'string' || property.type === 'number';
