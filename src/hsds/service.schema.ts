import { z } from '@hono/zod-openapi';
import { dateString, dateTimeString, emailString, uriString, uuidString } from './formats.schema.ts';
import { scheduleEntrySchema } from './schedule.schema.ts';

/** HSDS `service`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const serviceSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the service. Each service must have a unique identifier.',
      example: 'ac148810-d857-441c-9679-408f346de14b',
    }),
    organization_id: uuidString()
      .openapi({
        description: 'The identifier of the organization that provides this service.',
        example: 'd9d5e0f5-d3ce-4f73-9a2f-4dd0ecc6c610',
      })
      .optional(),
    program_id: uuidString()
      .openapi({
        description: 'The identifier of the program this service is delivered under.',
        example: 'e7ec2e57-4540-43fa-b2c7-6be5a0ef7f42',
      })
      .optional(),
    name: z.string().openapi({
      description: 'The official or public name of the service.',
      example: 'Community Counselling',
    }),
    alternate_name: z
      .string()
      .openapi({
        description: 'An (optional) alternative name for this service.',
        example: 'MyCity Counselling Services',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description: 'A free text description of the service.',
        example:
          'Counselling Services provided by trained professionals. Suitable for people with mental health conditions such as anxiety, depression, or eating disorders as well as people experiencing difficult life events and circumstances. ',
      })
      .optional(),
    url: uriString()
      .openapi({ description: 'URL of the service', example: 'http://example.com/counselling' })
      .optional(),
    email: emailString()
      .openapi({
        description: 'An email address which can be used to contact the service provider.',
        example: 'email@example.com',
      })
      .optional(),
    status: z.enum(['active', 'inactive', 'defunct', 'temporarily closed']).openapi({
      description:
        'The current status of the service which can be active, inactive, defunct, or temporarily closed.',
      example: 'active',
    }),
    interpretation_services: z
      .string()
      .openapi({
        description:
          'A free text description of any interpretation services available for accessing this service.',
        example: 'Interpretation services are available in Urdu, Polish, and Slovak',
      })
      .optional(),
    application_process: z
      .string()
      .openapi({
        description: 'A free text description of the steps needed to access this service.',
        example:
          'If you are an NHS patient please ask your GP for a referral letter, we will then be in touch with you directly. If you are not an NHS patient you should ring our reception to arrange an appointment',
      })
      .optional(),
    fees_description: z
      .string()
      .openapi({
        description: 'A free text description of any charges for service users to access this service.',
        example:
          'Non-NHS patients are expected to pay for their counselling sessions. We charge a flat rate per hour of counselling. The current rate is £50 per hour. Please see our website for up to date prices.',
      })
      .optional(),
    wait_time: z
      .string()
      .openapi({
        description: 'DEPRECATED: The time a client may expect to wait before receiving a service.',
        example: 'wait_time',
      })
      .optional(),
    fees: z
      .string()
      .openapi({
        description: 'DEPRECATED: Details of any charges for service users to access this service.',
        example: 'fees_description',
      })
      .optional(),
    accreditations: z
      .string()
      .openapi({
        description:
          'A free text description of any accreditations. Accreditation is the formal evaluation of an organization or program against best practice standards set by an accrediting organization.',
        example:
          'All of our practitioners are accredited by the BASC, UKCP, and the Professional Standards Body',
      })
      .optional(),
    eligibility_description: z
      .string()
      .openapi({
        description: 'A free text description of the type of person for whom this service is intended.',
        example:
          'This service is intended for all people aged 12 and over who require counselling services in the MyCity area',
      })
      .optional(),
    minimum_age: z
      .number()
      .openapi({
        description: 'The minimum age of a person required to meet this eligibility requirement.',
        example: 12,
      })
      .optional(),
    maximum_age: z
      .number()
      .openapi({
        description: 'The maximum age of a person required to meet this eligibility requirement.',
        example: 100,
      })
      .optional(),
    assured_date: dateString()
      .openapi({
        description: 'The date that the information about the service was last checked.',
        example: '2005-01-01',
      })
      .optional(),
    assurer_email: emailString()
      .openapi({
        description:
          'The contact e-mail address for the person or organization which last assured the service.',
        example: 'email@example.com',
      })
      .optional(),
    licenses: z
      .string()
      .openapi({
        description:
          'DEPRECATED: An organization may have a license issued by a government entity to operate legally. A list of any such licenses can be provided here.',
        example: 'licences',
      })
      .optional(),
    alert: z
      .string()
      .openapi({
        description: 'A description of any short term alerts concerning the service.',
        example:
          'Following COVID-19 we have moved most of our counselling sessions online. Please contact the reception if you require further information.',
      })
      .optional(),
    last_modified: dateTimeString()
      .openapi({
        description:
          'The datetime when the service, or any related information about the service, has changed. Should have millisecond accuracy.',
        example: '2023-03-15T10:30:45.123Z',
      })
      .optional(),
    operating_hours: z
      .array(scheduleEntrySchema)
      .openapi({
        description:
          'HSDS 3.3 (optional): the service\'s regular operating hours, which 3.3 prefers to `schedules`: schedules held in the service itself. Imported and written with the leniency of `schedules` (docs/loading-data.md, "How imports treat messy data"), served back, and counted by `open_at` and `open_now`.',
      })
      .optional(),
    events: z
      .array(scheduleEntrySchema)
      .openapi({
        description:
          'HSDS 3.3 (optional): one-off or recurring events at which the service is delivered, as schedules held in the service itself. Imported and written with the leniency of `schedules`, served back, and counted by `open_at` and `open_now` on their own dates.',
      })
      .optional(),
  })
  .openapi('service', {
    description: 'The details of the services provided by organizations to a range of different groups.',
  });

export type Service = z.infer<typeof serviceSchema>;
