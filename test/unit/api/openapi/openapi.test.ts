import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  formatOpenApiDocument,
  generateOpenApiDocument,
} from '../../../../src/api/openapi/openapi-document.ts';
import { loadConfig } from '../../../../src/config.ts';

type Operation = {
  operationId: string;
  tags?: string[];
  parameters?: ({ name?: string; $ref?: string; in?: string } & Record<string, unknown>)[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { parameters?: Record<string, { name: string }> };
};

const generated = generateOpenApiDocument() as unknown as Document;
const spec = JSON.parse(
  readFileSync(
    new URL('../../../fixtures/hsds/schema/openapi-with-requirement-tags.json', import.meta.url),
    'utf8',
  ),
) as Document;

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post'].includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );

// The specification swaps these two; ours are the corrected ones (fixed upstream in 3.2.3).
const corrected: Record<string, string> = {
  getTaxonomyTermById: 'getPaginatedListOfTaxonomyTerms',
  getPaginatedListOfTaxonomyTerms: 'getTaxonomyTermById',
};

describe('the OpenAPI document', () => {
  it('matches the committed openapi.json (regenerate with `npm run openapi:write`)', () => {
    const committed = readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8');
    expect(
      formatOpenApiDocument(generated) === committed,
      'openapi.json is stale: run npm run openapi:write',
    ).toBe(true);
  });

  it('is OpenAPI 3.1 with unique operationIds', () => {
    expect(generated.openapi).toBe('3.1.0');
    const ids = operations(generated).map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has every operation of the specification, with its operationId, requirement tag and parameters', () => {
    for (const { path, method, op } of operations(spec)) {
      const ours = generated.paths[path]?.[method];
      expect(ours, `${method} ${path}`).toBeDefined();
      if (!ours) continue;
      const expectedId = corrected[op.operationId] ?? op.operationId;
      expect(ours.operationId).toBe(method === 'post' ? expectedId.replace(/^get/, 'post') : expectedId);
      expect(ours.tags).toEqual(op.tags);
      const names = (ours.parameters ?? []).map((p) => p.name);
      for (const p of op.parameters ?? []) {
        const name = p.$ref ? spec.components.parameters?.[p.$ref.split('/').at(-1)!]?.name : p.name;
        expect(names, `${method} ${path} ${name}`).toContain(name);
      }
      expect(Object.keys(ours.responses)).toEqual(expect.arrayContaining(['200', '400', '500', '503']));
    }
  });

  it('documents NDJSON on every list endpoint and 404 on every record endpoint', () => {
    for (const { path, op } of operations(generated)) {
      if (path.endsWith('{id}')) expect(op.responses['404'], path).toBeDefined();
      else if (!['/', '/health', '/ready', '/suggest', '/validate'].includes(path)) {
        expect(Object.keys(op.responses['200']?.content ?? {})).toEqual([
          'application/json',
          'application/x-ndjson',
        ]);
      }
    }
  });

  it('adds the UK parameters and requirements under the UK profile', () => {
    const uk = generateOpenApiDocument(loadConfig({ HSDS_PROFILE: 'oruk' })) as unknown as Document;
    const names = (uk.paths['/services']?.get?.parameters ?? []).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['minimum_age', 'maximum_age', 'day', 'start_time', 'end_time']),
    );
    expect(uk.paths['/taxonomies']?.get?.tags).toEqual(['required']);
    expect(uk.paths['/service_at_locations/{id}']?.get?.tags).toEqual(['required']);
    expect((generated.paths['/services']?.get?.parameters ?? []).map((p) => p.name)).not.toContain(
      'minimum_age',
    );
  });

  it('states the configured page size limits', () => {
    const small = generateOpenApiDocument(
      loadConfig({ DEFAULT_PER_PAGE: '20', MAX_PER_PAGE: '200' }),
    ) as unknown as Document;
    const perPage = small.paths['/services']?.get?.parameters?.find((p) => p.name === 'per_page');
    expect(perPage?.schema).toMatchObject({ default: 20, maximum: 200 });
  });
});
