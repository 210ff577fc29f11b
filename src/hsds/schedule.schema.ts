import { z } from '@hono/zod-openapi';
import { dateString, timeString, uriString, uuidString } from './formats.schema.ts';

/** HSDS `schedule`, direct fields only: its scalars and parent ids, one row of the tabular form. */
export const scheduleSchema = z
  .looseObject({
    id: uuidString().openapi({
      description: 'The identifier for the schedule. Each entry must have a unique identifier.',
      example: '48102e86-bb50-41c4-8f1e-e269368c41d1',
    }),
    service_id: uuidString()
      .openapi({
        description: 'The identifier of the service for which this is the regular schedule',
        example: 'ac148810-d857-441c-9679-408f346de14b',
      })
      .optional(),
    location_id: uuidString()
      .openapi({
        description: 'The identifier of the location for which this is the regular schedule',
        example: '3a19ff88-4620-4d17-9830-ac1d859eb5d5',
      })
      .optional(),
    service_at_location_id: uuidString()
      .openapi({
        description:
          'The identifier of the ‘service at location’ table entry, when this schedule is specific to a service in a particular location.',
        example: 'e94c9f38-1e8f-4564-91d4-d53501ab1765',
      })
      .optional(),
    valid_from: dateString()
      .openapi({
        description:
          'The date from which the schedule information is valid. It must be in the ISO 8601 format of YYYY-MM-DD,',
        example: '2005-01-01',
      })
      .optional(),
    valid_to: dateString()
      .openapi({
        description:
          'The last date on which the schedule information is valid. It must be in the ISO 8601 format of YYYY-MM-DD.',
        example: '2005-01-01',
      })
      .optional(),
    dtstart: dateString()
      .openapi({
        description:
          'iCal - The date of the first event is the schedule. Necessary when using the ‘interval’ feature, optional otherwise.',
        example: '2005-01-01',
      })
      .optional(),
    timezone: z
      .number()
      .openapi({
        description:
          'The timezone that all dates are expressed as, expressed as a UTC offset. Dates are assumed to be UTC otherwise.',
        example: 3,
      })
      .optional(),
    until: dateString()
      .openapi({
        description: 'iCal - The date of the last occurrence of the recurring event.',
        example: '2005-01-01',
      })
      .optional(),
    count: z
      .number()
      .openapi({
        description:
          'iCal - The number of times that the event occurs. Use this instead of ‘until’, if appropriate.',
        example: 3,
      })
      .optional(),
    wkst: z
      .enum(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'])
      .openapi({
        description:
          'iCal - The two-letter code for the day on which the week starts: `MO`, `TU`, `WE`, `TH`, `FR`, `FR`, `SA`, `SU`',
        example: 'TU',
      })
      .optional(),
    freq: z
      .enum(['WEEKLY', 'MONTHLY'])
      .openapi({
        description: 'iCal - How often the frequency repeats. Values can be `WEEKLY` or `MONTHLY`',
        example: 'WEEKLY',
      })
      .optional(),
    interval: z
      .number()
      .openapi({
        description:
          'iCal - How often the frequency repeats. For example, and Interval of 2 for a WEEKLY Frequency would represent fortnightly.',
        example: 1,
      })
      .optional(),
    byday: z
      .string()
      .openapi({
        description:
          'iCal - Comma separated days of the week. Where freq is MONTHLY each part can be preceded by a positive or negative integer to represent which occurrence in a month; e.g. 2MO is the second Monday in a month. -1FR is the last Friday',
        example: 'TH,FR',
      })
      .optional(),
    byweekno: z
      .string()
      .openapi({
        description:
          'iCal - Comma separated numeric weeks of the year, where freq is WEEKLY. Can be negative to represent weeks before the end of the year; e.g. -5 is the 5th to last week in a year.',
        example: '41,42',
      })
      .optional(),
    bymonthday: z
      .string()
      .openapi({
        description:
          'iCal - Comma separated numeric days of the month, where frequency is MONTHLY. Can be negative to represent days before the end of the month; e.g. -5 is the 5th to last day in a month.',
        example: '2,3,4',
      })
      .optional(),
    byyearday: z
      .string()
      .openapi({
        description:
          'iCal - Comma separated numeric days of the month, where frequency is YEARLY. Can be negative to represent days before the end of the year; e.g. -1 is the last day in a year.',
        example: '2,3,4',
      })
      .optional(),
    description: z
      .string()
      .openapi({
        description: 'A free text description of the availability of the service.',
        example:
          'The service is available from 10 am to 6pm weekdays. The service is not available on public holidays.',
      })
      .optional(),
    opens_at: timeString()
      .openapi({
        description:
          'The time when a service or location opens. This should use HH:MM format and should include timezone information, either adding the suffix ‘Z’ when the date is in UTC, or including an offset from UTC (e.g. 09:00-05:00 for 9am EST.)',
        example: '10:00:00',
      })
      .optional(),
    closes_at: timeString()
      .openapi({
        description:
          'The time when a service or location closes. This should use HH:MM format and should include timezone information, either adding the suffix ‘Z’ when the date is in UTC, or including an offset from UTC (e.g. 09:00-05:00 for 9am EST.).',
        example: '18:00:00',
      })
      .optional(),
    schedule_link: uriString()
      .openapi({
        description:
          'URL of a link for the schedule which may show each individual session and may provide a booking facility.',
        example: 'http://example.com',
      })
      .optional(),
    attending_type: z
      .string()
      .openapi({
        description: 'A free text description of how to attend this service.',
        example: 'You can attend this service in-person or remotely via video conferencing',
      })
      .optional(),
    notes: z
      .string()
      .openapi({
        description: 'Free text notes on the schedule.',
        example:
          'Some of our staff will be unavailable during their lunch break which may be any 30 minute period between 1200 and 1400',
      })
      .optional(),
    group: z
      .string()
      .openapi({
        description:
          'HSDS 3.3 (optional): a label grouping schedules that belong together (for example `Term time` and `School holidays`). Imported, stored, written and served like any schedule field; a 3.1 client may ignore it.',
        example: 'Term time',
      })
      .optional(),
  })
  .openapi('schedule', {
    description: 'The details of when a service or location is open. Entries are RFC 5545 RRULES.',
  });

export type Schedule = z.infer<typeof scheduleSchema>;

/**
 * An entry of a service's HSDS 3.3 `operating_hours` or `events`: a schedule held in the service
 * itself, so its `id` may be absent (3.3 gives these lists the shape of `schedules`).
 */
export const scheduleEntrySchema = scheduleSchema.partial({ id: true }).openapi('schedule_entry', {
  description:
    "HSDS 3.3: a schedule held in a service's `operating_hours` or `events` (the shape of `schedule`; its `id` may be absent).",
});
