/**
 * The relevance corpus as nested HSDS records (the shape GET /services/{id} serves), ready for the
 * reindex writer. Ids are UUID v5 of each key, so judgments, tests and runs agree on them.
 */
import type { ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../../src/hsds/index.ts';
import { uuidV5 } from '../../src/ingest/migrate/legacy-ids.ts';
import { CORPUS_SERVICES, CORPUS_TERMS } from './corpus.ts';

export const serviceIdOf = (key: string) => uuidV5(`relevance:service:${key}`);
const organizationIdOf = (name: string) => uuidV5(`relevance:organization:${name}`);
const termIdOf = (key: string) => uuidV5(`relevance:term:${key}`);

export const CORPUS_TAXONOMY: TaxonomyFull = {
  id: uuidV5('relevance:taxonomy'),
  name: 'Needs',
  description: 'What people come to a directory for.',
};

export function corpusTerms(): TaxonomyTermFull[] {
  return CORPUS_TERMS.map(([key, name, description]) => ({
    id: termIdOf(key),
    name,
    description,
    taxonomy_id: CORPUS_TAXONOMY.id,
  }));
}

export function corpusServices(): ServiceFull[] {
  const terms = new Map(corpusTerms().map((term, i) => [CORPUS_TERMS[i]![0], term]));
  return CORPUS_SERVICES.map(([key, name, organization, description, termKeys]) => {
    const organizationId = organizationIdOf(organization);
    return {
      id: serviceIdOf(key),
      name,
      description,
      status: 'active',
      organization_id: organizationId,
      organization: { id: organizationId, name: organization, description: `${organization}.` },
      attributes: termKeys.map((termKey) => {
        const term = terms.get(termKey);
        if (!term) throw new Error(`corpus service ${key}: unknown term ${termKey}`);
        return {
          id: uuidV5(`relevance:attribute:${key}:${termKey}`),
          taxonomy_term_id: term.id,
          taxonomy_term: term,
        };
      }),
    } as ServiceFull;
  });
}

/** The key of each service id, to read judgments against results. */
export const keyOfServiceId = (): Map<string, string> =>
  new Map(CORPUS_SERVICES.map(([key]) => [serviceIdOf(key), key]));
