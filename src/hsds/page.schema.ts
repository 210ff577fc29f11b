import { z } from '@hono/zod-openapi';

/**
 * The HSDS `Page` object wrapped around every list response, as HSDS 3.1.1's openapi.json defines
 * it: seven properties of which only `empty` is required, plus the `contents` array that each list
 * response adds. Extra properties are allowed, as the official schema does not forbid them.
 */
export const pageSchema = <Item extends z.ZodType>(itemSchema: Item) =>
  z.looseObject({
    total_items: z
      .number()
      .int()
      .openapi({ description: 'The total number of entities (e.g. services, organizations) returned' })
      .optional(),
    total_pages: z.number().int().openapi({ description: 'Count of total pages.' }).optional(),
    page_number: z.number().int().openapi({ description: 'The number of the current page' }).optional(),
    size: z.number().int().openapi({ description: 'The number of entities in the current page.' }).optional(),
    first_page: z
      .boolean()
      .openapi({ description: 'A Boolean value indicating if this is the first page' })
      .optional(),
    last_page: z
      .boolean()
      .openapi({ description: 'A Boolean value indicating if this is the last page' })
      .optional(),
    empty: z.boolean().openapi({ description: 'A Boolean value indicating if there is an empty result set' }),
    contents: z.array(itemSchema).openapi({ description: 'The entities in this page.' }).optional(),
  });

/** A page of items validated by `Item`. */
export type Page<Item extends z.ZodType> = z.infer<ReturnType<typeof pageSchema<Item>>>;
