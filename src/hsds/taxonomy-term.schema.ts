import { z } from '@hono/zod-openapi';
import { uriString, uuidString } from './formats.schema.ts';

/** HSDS `taxonomy_term`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const taxonomyTermSchema = z
  .looseObject({
    id: uuidString().openapi({
      description:
        'The identifier for this taxonomy term. Each taxonomy term must have a unique identifier, within the scope of the dataset.',
      example: '3f7b145d-84af-42d7-8fae-eaca714b02b2',
    }),
    code: z
      .string()
      .openapi({
        description:
          'The term identfier as used in the taxonomy. This and the taxonomy_id combined define the term.',
        example: 'code',
      })
      .optional(),
    name: z.string().openapi({ description: 'The taxonomy term itself.', example: 'name' }),
    description: z
      .string()
      .openapi({ description: 'A free text description of the term.', example: 'description' }),
    parent_id: uuidString()
      .openapi({
        description:
          'If this is a child term in a hierarchical taxonomy, give the identifier of the parent category. For top-level categories, this is not required.',
        example: '0bc248fa-dc27-4650-9ba4-8f1a24ef16a2',
      })
      .optional(),
    taxonomy: z
      .string()
      .openapi({
        description:
          'If this is an established taxonomy, a free text description of which taxonomy is in use. If possible, provide a URI.',
        example: 'taxonomy',
      })
      .optional(),
    language: z
      .string()
      .openapi({
        description:
          'An ISO 639-1, ISO 639-2, or ISO 639-3 [language code](http://www.loc.gov/standards/iso639-2/php/code_list.php) to represent the language of the term. The three-letter codes from ISO 639-2 and ISO 639-3 provide greater accuracy when describing variants of languages, which may be relevant to particular communities.',
        example: 'eng',
      })
      .optional(),
    taxonomy_id: uuidString()
      .openapi({
        description: 'The identifier of the taxonomy containing the term.',
        example: '07ff6aee-a219-438c-b694-d2fcb6c5373b',
      })
      .optional(),
    term_uri: uriString()
      .openapi({ description: 'URI of the term.', example: 'http://example.com' })
      .optional(),
  })
  .openapi('taxonomy_term', {
    description:
      'Each service can be categorized according to one or more taxonomy terms. The taxonomy_term object contains a list of taxonomy terms, their names, and, for hierarchical taxonomies, their structure.',
  });

export type TaxonomyTerm = z.infer<typeof taxonomyTermSchema>;
