/**
 * Loads nested HSDS fixtures into the read indices of a test engine, through the same document
 * builders and writer the reindex uses. Every fixture is validated by the HSDS schemas first, so
 * fixtures cannot rot (docs/style.md 21).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from '@hono/zod-openapi';
import type { Engine } from '../../src/engine/engine.ts';
import {
  organizationFullSchema,
  type ServiceFull,
  serviceFullSchema,
  taxonomyFullSchema,
  taxonomyTermFullSchema,
} from '../../src/hsds/index.ts';
import {
  type ReadIndicesReport,
  type Source,
  type WriteReadIndicesOptions,
  writeReadIndices,
} from '../../src/ingest/publish/read-indices.writer.ts';

export type SeedInput = {
  /** Fully nested services (GET /services/{id} shape). */
  services: Source<unknown>;
  taxonomies?: Source<unknown>;
  taxonomyTerms?: Source<unknown>;
  /** Organizations (nested; `services` ignored). Default: those nested in the services. */
  organizations?: Source<unknown>;
};

async function* validated<S extends z.ZodType>(
  schema: S,
  what: string,
  source: Source<unknown>,
): AsyncGenerator<z.infer<S>> {
  let i = 0;
  for await (const item of source) {
    const result = schema.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(
        `seed fixture ${what}[${i}] is not valid HSDS: ${issue?.path.join('.')}: ${issue?.message}`,
      );
    }
    yield result.data;
    i += 1;
  }
}

/**
 * Builds a new version of every read index from the given nested records and swaps the test
 * engine's aliases to it. Call it again to replace the data wholesale.
 */
export function seedReadIndices(
  engine: Engine,
  input: SeedInput,
  options: WriteReadIndicesOptions = {},
): Promise<ReadIndicesReport> {
  return writeReadIndices(
    engine,
    {
      services: validated(serviceFullSchema, 'services', input.services),
      taxonomies: validated(taxonomyFullSchema, 'taxonomies', input.taxonomies ?? []),
      taxonomyTerms: validated(taxonomyTermFullSchema, 'taxonomyTerms', input.taxonomyTerms ?? []),
      ...(input.organizations
        ? { organizations: validated(organizationFullSchema, 'organizations', input.organizations) }
        : {}),
    },
    options,
  );
}

const examples = new URL('../fixtures/hsds/examples/', import.meta.url);
const readExample = (name: string): unknown => JSON.parse(readFileSync(new URL(name, examples), 'utf8'));

/** The official HSDS 3.1 examples (test/fixtures/hsds/examples) as seed input. */
export function officialExamples(): Required<SeedInput> {
  return {
    services: [readExample('service_full.json')],
    taxonomies: [readExample('taxonomy.json')],
    taxonomyTerms: [readExample('taxonomy_term.json')],
    organizations: [readExample('organization_full.json')],
  };
}

/** A small active service with an organization of its own, and `attributes` for the terms given. */
export function fixtureService(
  name: string,
  description: string,
  organization: { name: string; description: string },
  terms?: readonly { id: string; name: string }[],
): ServiceFull {
  const organizationId = randomUUID();
  return {
    id: randomUUID(),
    name,
    description,
    status: 'active',
    organization_id: organizationId,
    organization: { id: organizationId, ...organization },
    ...(terms
      ? { attributes: terms.map((t) => ({ id: randomUUID(), taxonomy_term_id: t.id, taxonomy_term: t })) }
      : {}),
  } as ServiceFull;
}
