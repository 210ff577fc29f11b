import { z } from '@hono/zod-openapi';
import { uuidString } from './formats.schema.ts';

/** HSDS `address`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const addressSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier of the postal address. Each postal address must have a unique identifier.',
      example: '74706e55-df26-4b84-80fe-ecc30b5befb4',
    }),
    location_id: uuidString()
      .openapi({
        description: 'The identifier of the location for this postal address.',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    attention: z
      .string()
      .openapi({
        description:
          'The name of the person or entity whose attention should be sought at the location. These are often included as a "care of" component of an address.',
        example: 'A. Persona',
      })
      .optional(),
    address_1: z.string().openapi({
      description: 'The first line(s) of the address, including office, building number and street.',
      example: '1-30 Main Street',
    }),
    address_2: z
      .string()
      .openapi({ description: 'A second (additional) line of address information.', example: 'MyVillage' })
      .optional(),
    city: z.string().openapi({ description: 'The city in which the address is located.', example: 'MyCity' }),
    region: z
      .string()
      .openapi({ description: 'The region in which the address is located (optional).', example: 'MyRegion' })
      .optional(),
    state_province: z
      .string()
      .openapi({ description: 'The state or province in which the address is located.', example: 'MyState' }),
    postal_code: z.string().openapi({ description: 'The postal code for the address.', example: 'ABC 1234' }),
    country: z.string().openapi({
      description:
        'The country in which the address is located. This should be given as an ISO 3361-1 country code (two letter abbreviation).',
      example: 'US',
    }),
    address_type: z.enum(['physical', 'postal', 'virtual']).openapi({
      description: 'The type of address which may be `physical`, `postal`, or `virtual`.',
      example: 'postal',
    }),
  })
  .openapi('address', { description: 'The addresses of locations where organizations operate.' });

export type Address = z.infer<typeof addressSchema>;
