import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import {
  organizationFullSchema,
  pageSchema,
  serviceAtLocationFullSchema,
  serviceAtLocationListItemSchema,
  serviceFullSchema,
  serviceListItemSchema,
  taxonomyTermFullSchema,
} from '../../../src/hsds/index.ts';
import { readOfficialSchema } from './fixtures.ts';

type JsonSchema = {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  allOf?: JsonSchema[];
  $ref?: string;
};

const documentFor = (responses: Record<string, z.ZodType>) => {
  const app = new OpenAPIHono();
  for (const [path, schema] of Object.entries(responses)) {
    app.openapi(
      createRoute({
        method: 'get',
        path,
        responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } },
      }),
      (c) => c.json({}),
    );
  }
  return app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '0' } });
};

describe('the OpenAPI document generated from the schemas', () => {
  const document = documentFor({
    '/services/{id}': serviceFullSchema,
    '/services': pageSchema(serviceListItemSchema),
    '/organizations/{id}': organizationFullSchema,
    '/service_at_locations/{id}': serviceAtLocationFullSchema,
    '/service_at_locations': pageSchema(serviceAtLocationListItemSchema),
    '/taxonomy_terms/{id}': taxonomyTermFullSchema,
  });
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;

  it('names each HSDS object as a component', () => {
    expect(Object.keys(components)).toEqual(
      expect.arrayContaining([
        'service',
        'organization',
        'location',
        'phone',
        'service_full',
        'organization_full',
      ]),
    );
  });

  it('documents every field with the official description, type and format', () => {
    const official = readOfficialSchema('service');
    const service = components.service!;
    expect(service.description).toBe(official.description);
    for (const [name, property] of Object.entries(service.properties ?? {})) {
      const expected = official.properties[name] as { description?: string; format?: string } | undefined;
      if (!expected) continue; // the HSDS 3.3 additions
      expect(property.description, name).toBe(expected.description);
      if (expected.format) expect(property.format, name).toBe(expected.format);
    }
    expect(service.properties?.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(service.properties?.email).toMatchObject({ type: 'string', format: 'email' });
    expect(service.properties?.last_modified).toMatchObject({ type: 'string', format: 'date-time' });
    // Times and dates are plain strings in 3.1 JSON, as the official schema declares them (only
    // the tabular form types them): served records keep what the publisher wrote.
    const opensAt = components.schedule?.properties?.opens_at as
      | { format?: string; pattern?: string }
      | undefined;
    expect(opensAt).toMatchObject({ type: 'string' });
    expect(opensAt?.format).toBeUndefined();
    expect(opensAt?.pattern).toBeUndefined();
  });

  it('composes the nested shapes from the per-object components', () => {
    expect(JSON.stringify(components.service_nested)).toContain('"$ref":"#/components/schemas/service"');
    expect(JSON.stringify(components.service_nested)).toContain('"$ref":"#/components/schemas/phone_full"');
    expect(JSON.stringify(components.service_full)).toContain('"$ref":"#/components/schemas/service_nested"');
    expect(JSON.stringify(components.service_at_location_full)).toContain(
      '"$ref":"#/components/schemas/service_nested"',
    );
  });
});
