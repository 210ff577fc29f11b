/**
 * A relevance corpus (the development set's, bench/relevance/corpus.ts, or the held-out one's,
 * bench/relevance/heldout/corpus.ts) as nested HSDS records (the shape GET /services/{id} serves),
 * ready for the reindex writer. Ids are UUID v5 of the corpus's namespace and each key, so
 * judgments, tests and runs agree on them, and two corpora never share an id.
 */
import type { ServiceFull, TaxonomyFull, TaxonomyTermFull } from '../../src/hsds/index.ts';
import { uuidV5 } from '../../src/ingest/migrate/legacy-ids.ts';
import type { CorpusService, CorpusTerm } from './corpus.ts';

export type Corpus = {
  /** Names the ids: `relevance` for the development set (its ids as they always were). */
  namespace: string;
  terms: readonly CorpusTerm[];
  services: readonly CorpusService[];
};

export type CorpusRecords = {
  taxonomy: TaxonomyFull;
  terms: TaxonomyTermFull[];
  services: ServiceFull[];
  /** The key of each service id, to read judgments against results. */
  keyOfServiceId: Map<string, string>;
};

export const serviceIdOf = (namespace: string, key: string) => uuidV5(`${namespace}:service:${key}`);

export function corpusRecords(corpus: Corpus): CorpusRecords {
  const { namespace } = corpus;
  const taxonomy: TaxonomyFull = {
    id: uuidV5(`${namespace}:taxonomy`),
    name: 'Needs',
    description: 'What people come to a directory for.',
  };
  const terms = corpus.terms.map(([key, name, description]) => ({
    id: uuidV5(`${namespace}:term:${key}`),
    name,
    description,
    taxonomy_id: taxonomy.id,
  }));
  const termOf = new Map(terms.map((term, i) => [corpus.terms[i]![0], term]));
  const services = corpus.services.map(([key, name, organization, description, termKeys]) => {
    const organizationId = uuidV5(`${namespace}:organization:${organization}`);
    return {
      id: serviceIdOf(namespace, key),
      name,
      description,
      status: 'active',
      organization_id: organizationId,
      organization: { id: organizationId, name: organization, description: `${organization}.` },
      attributes: termKeys.map((termKey) => {
        const term = termOf.get(termKey);
        if (!term) throw new Error(`corpus service ${key}: unknown term ${termKey}`);
        return {
          id: uuidV5(`${namespace}:attribute:${key}:${termKey}`),
          taxonomy_term_id: term.id,
          taxonomy_term: term,
        };
      }),
    } as ServiceFull;
  });
  const keyOfServiceId = new Map(corpus.services.map(([key]) => [serviceIdOf(namespace, key), key]));
  return { taxonomy, terms, services, keyOfServiceId };
}
