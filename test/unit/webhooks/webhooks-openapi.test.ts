/**
 * The served OpenAPI document of a server with an admin token describes the webhook routes and
 * the event a target receives (`webhooks.recordChanged`, schema WebhookEvent). The committed
 * openapi.json is the document without tokens, so without the admin routes.
 */
import { describe, expect, it } from 'vitest';
import { newToken } from '../../../src/api/http/auth.ts';
import { generateOpenApiDocument } from '../../../src/api/openapi/openapi-document.ts';
import { loadConfig } from '../../../src/config.ts';

type Schema = { properties?: Record<string, Schema>; required?: string[]; $ref?: string; enum?: string[] };
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  security?: unknown[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const admin = newToken('ops', ['admin']);
const document = generateOpenApiDocument(loadConfig({ API_TOKENS: admin.entry })) as unknown as Document;

describe('the OpenAPI document of a server with an admin token', () => {
  it('has the webhook routes, each behind the admin token', () => {
    const operations = {
      '/admin/webhooks': ['get', 'post'],
      '/admin/webhooks/{id}': ['get', 'delete'],
      '/admin/webhooks/{id}/resume': ['post'],
      '/admin/webhooks/{id}/pause': ['post'],
      '/admin/webhooks/{id}/secret': ['post'],
      '/admin/webhooks/{id}/deliveries': ['get'],
    };
    for (const [path, methods] of Object.entries(operations)) {
      for (const method of methods) {
        const operation = document.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation?.security).toEqual([{ adminToken: [] }]);
        expect(operation?.responses).toHaveProperty('401');
      }
    }
    const register = document.paths['/admin/webhooks']!.post!;
    expect(register.requestBody?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/WebhookRegistration',
    );
    expect(Object.keys(document.components.schemas.WebhookRegistration?.properties ?? {})).toEqual([
      'url',
      'secret',
      'filter',
      'description',
    ]);
    expect(Object.keys(document.components.schemas.WebhookFilter?.properties ?? {}).sort()).toEqual(
      ['organization_ids', 'record_types', 'sources', 'taxonomy_ids', 'taxonomy_term_ids'].sort(),
    );
  });

  it('describes the event body a target receives', () => {
    const event = document.webhooks?.recordChanged?.post;
    expect(event).toBeDefined();
    expect(event?.requestBody?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/WebhookEvent',
    );
    const body = document.components.schemas.WebhookEvent!;
    expect(body.required?.sort()).toEqual(['data', 'timestamp', 'type']);
    const data = body.properties?.data;
    expect(Object.keys(data?.properties ?? {}).sort()).toEqual(
      ['action', 'id', 'published_at', 'record_type', 'sequence', 'url'].sort(),
    );
    expect(data?.properties?.action?.enum).toEqual(['created', 'updated', 'deleted']);
  });

  it('leaves them out without an admin token (as the committed openapi.json)', () => {
    const plain = generateOpenApiDocument(loadConfig({})) as unknown as Document;
    expect(Object.keys(plain.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(plain.webhooks ?? {}).toEqual({});
  });
});
