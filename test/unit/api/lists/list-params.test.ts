import type { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { param, resolvePaging } from '../../../../src/api/lists/list-params.ts';

const parse = (schema: z.ZodType, value: unknown) => schema.safeParse(value);

describe('list parameters', () => {
  it('read an empty value as absent, as HTML forms send them', () => {
    const limits = { defaultPerPage: 50, maxPerPage: 1000 };
    const schemas = [
      param.search(),
      param.page(),
      param.perPage(limits),
      param.taxonomyId(),
      param.taxonomyTermId(),
      param.modifiedAfter(),
      param.full('service'),
      param.format(),
      param.postcode(),
      param.proximity(),
      param.day(),
      param.startTime(),
    ];
    for (const schema of schemas) {
      for (const blank of ['', '  ']) {
        expect(parse(schema, blank)).toMatchObject({ success: true, data: undefined });
      }
    }
    expect(parse(param.taxonomyId(), 'x').success).toBe(false);
  });

  it('read booleans from JSON or strings, and refuse anything else', () => {
    const full = param.full('service');
    expect(parse(full, 'true').data).toBe(true);
    expect(parse(full, 'FALSE').data).toBe(false);
    expect(parse(full, true).data).toBe(true);
    for (const bad of ['yes', '1', 2]) expect(parse(full, bad).success).toBe(false);
  });

  it('read whole numbers in range', () => {
    const perPage = param.perPage({ defaultPerPage: 50, maxPerPage: 1000 });
    expect(parse(perPage, '20').data).toBe(20);
    expect(parse(perPage, 1000).data).toBe(1000);
    for (const bad of ['0', '1001', '1.5', 'ten', '1e3', -1]) expect(parse(perPage, bad).success).toBe(false);
    expect(parse(perPage, '1001').error?.issues[0]?.message).toBe('must be at most 1000');
  });

  it('normalise modified_after to UTC and refuse what is not a date-time', () => {
    const modifiedAfter = param.modifiedAfter();
    expect(parse(modifiedAfter, '2024-01-31T10:00:00+01:00').data).toBe('2024-01-31T09:00:00.000Z');
    expect(parse(modifiedAfter, '2024-01-31').data).toBe('2024-01-31T00:00:00.000Z');
    expect(parse(modifiedAfter, '2024-01-31T09:00:00.123456789Z').data).toBe('2024-01-31T09:00:00.123Z');
    for (const bad of ['yesterday', '2024-13-01', '31/01/2024', '2024-01-31T25:00:00Z']) {
      expect(parse(modifiedAfter, bad).success, bad).toBe(false);
    }
  });

  it('refuse a modified_after day that does not exist, which Date.parse would roll over', () => {
    const modifiedAfter = param.modifiedAfter();
    for (const bad of ['2024-02-30', '2023-02-29', '2100-02-29', '2024-06-31', '2024-00-01', '2024-01-00']) {
      expect(parse(modifiedAfter, bad).success, bad).toBe(false);
      expect(parse(modifiedAfter, `${bad}T12:00:00Z`).success, bad).toBe(false);
    }
    for (const good of ['2024-02-29', '2000-02-29', '2023-02-28', '2024-12-31']) {
      expect(parse(modifiedAfter, good).data, good).toBe(`${good}T00:00:00.000Z`);
    }
  });

  it('refuse search text beyond 500 characters, saying the limit', () => {
    expect(parse(param.search(), 'x'.repeat(500)).success).toBe(true);
    expect(parse(param.search(), 'x'.repeat(501)).error?.issues[0]?.message).toBe(
      'must be at most 500 characters',
    );
  });

  it('read days and times of the UK profile', () => {
    expect(parse(param.day(), 'monday').data).toBe('MO');
    expect(parse(param.day(), 'Fr').data).toBe('FR');
    expect(parse(param.day(), 'someday').success).toBe(false);
    expect(parse(param.startTime(), '09:30:00').data).toBe('09:30');
    expect(parse(param.startTime(), '9:30').success).toBe(false);
  });

  it('accept only UUIDs as ids', () => {
    expect(parse(param.organizationId(), 'ac148810-d857-441c-9679-408f346de14b').success).toBe(true);
    expect(parse(param.organizationId(), 'food').success).toBe(false);
  });

  it('apply paging defaults after merging', () => {
    expect(resolvePaging({}, { defaultPerPage: 50, maxPerPage: 1000 })).toEqual({
      page: 1,
      perPage: 50,
      format: 'json',
    });
    expect(
      resolvePaging({ page: 3, per_page: 7, format: 'ndjson' }, { defaultPerPage: 50, maxPerPage: 1000 }),
    ).toEqual({
      page: 3,
      perPage: 7,
      format: 'ndjson',
    });
  });
});
