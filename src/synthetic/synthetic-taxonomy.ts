import {
  AUDIENCES,
  type AudienceTopic,
  type LeafTopic,
  SERVICE_TOPICS,
  type TopTopic,
} from './human-services.content.ts';
import type { IdSequence } from './seeded-random.ts';
import type { SyntheticTaxonomy, SyntheticTaxonomyTerm } from './synthetic.types.ts';

export type LeafEntry = {
  top: TopTopic;
  topIndex: number;
  leaf: LeafTopic;
  term: SyntheticTaxonomyTerm;
  parent: SyntheticTaxonomyTerm;
};
export type AudienceEntry = { audience: AudienceTopic; term: SyntheticTaxonomyTerm };

export type SyntheticTaxonomySet = {
  taxonomies: SyntheticTaxonomy[];
  terms: SyntheticTaxonomyTerm[];
  /** Leaves grouped by top-level topic, in SERVICE_TOPICS order. */
  leavesByTop: LeafEntry[][];
  audiences: AudienceEntry[];
};

const TAXONOMY_BASE = 'https://taxonomy.example.org';

/**
 * Two taxonomies: a three-level category tree (top topic > sub-topic > leaf) and a flat list of
 * audiences. Codes are hierarchical ("FOOD", "FOOD-1", "FOOD-1-2") so a term's place in the tree
 * is readable in the data.
 */
export function buildSyntheticTaxonomies(ids: IdSequence): SyntheticTaxonomySet {
  const categories: SyntheticTaxonomy = {
    id: ids.next(),
    name: 'North East Scotland Service Categories',
    description:
      'A three-level classification of community and human services (category, sub-category, service type), made for synthetic directory data.',
    uri: `${TAXONOMY_BASE}/service-categories`,
    version: '1.0',
  };
  const audiences: SyntheticTaxonomy = {
    id: ids.next(),
    name: 'Service Audiences',
    description: 'Who a service is meant for: age groups and communities.',
    uri: `${TAXONOMY_BASE}/audiences`,
    version: '1.0',
  };

  const terms: SyntheticTaxonomyTerm[] = [];
  const term = (
    taxonomy: SyntheticTaxonomy,
    code: string,
    name: string,
    description: string,
    parent?: SyntheticTaxonomyTerm,
  ) => {
    const created: SyntheticTaxonomyTerm = {
      id: ids.next(),
      code,
      name,
      description,
      ...(parent ? { parent_id: parent.id } : {}),
      taxonomy: taxonomy.name,
      taxonomy_id: taxonomy.id,
      taxonomy_detail: { ...taxonomy },
      language: 'en',
      term_uri: `${taxonomy.uri}/${code}`,
    };
    terms.push(created);
    return created;
  };

  const leavesByTop = SERVICE_TOPICS.map((top, topIndex) => {
    const topTerm = term(categories, top.code, top.name, top.description);
    return top.subs.flatMap((sub, subIndex) => {
      const subTerm = term(categories, `${top.code}-${subIndex + 1}`, sub.name, sub.description, topTerm);
      return sub.leaves.map((leaf, leafIndex) => ({
        top,
        topIndex,
        leaf,
        term: term(
          categories,
          `${top.code}-${subIndex + 1}-${leafIndex + 1}`,
          leaf.name,
          leaf.description,
          subTerm,
        ),
        parent: subTerm,
      }));
    });
  });

  const audienceEntries = AUDIENCES.map((audience) => ({
    audience,
    term: term(audiences, audience.code, audience.name, audience.description),
  }));

  return { taxonomies: [categories, audiences], terms, leavesByTop, audiences: audienceEntries };
}
