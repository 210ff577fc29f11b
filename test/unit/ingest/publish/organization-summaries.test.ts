import { describe, expect, it } from 'vitest';
import { OrganizationSummaries } from '../../../../src/ingest/publish/read-indices.writer.ts';

describe('OrganizationSummaries', () => {
  it("gathers each organization's services, taxonomy links and newest change", () => {
    const summaries = new OrganizationSummaries();
    summaries.add({
      id: 's2',
      organization_id: 'o1',
      taxonomy_term_ids: ['t2', 't1'],
      taxonomy_ids: ['x'],
      last_modified: '2025-01-02T10:00:00+01:00',
    });
    summaries.add({
      id: 's1',
      organization_id: 'o1',
      taxonomy_term_ids: ['t1'],
      taxonomy_ids: ['x'],
      last_modified: '2025-01-02T09:30:00Z',
    });
    summaries.add({ id: 's3', organization_id: 'o2', taxonomy_term_ids: [], taxonomy_ids: [] });
    summaries.add({ id: 's4', taxonomy_term_ids: ['t9'], taxonomy_ids: [] });
    expect(summaries.summaryOf('o1')).toEqual({
      service_ids: ['s1', 's2'],
      taxonomy_term_ids: ['t1', 't2'],
      taxonomy_ids: ['x'],
      // 10:00 at +01:00 is 09:00 UTC, older than 09:30 UTC.
      last_modified: '2025-01-02T09:30:00.000Z',
    });
    expect(summaries.summaryOf('o2')).toEqual({
      service_ids: ['s3'],
      taxonomy_term_ids: [],
      taxonomy_ids: [],
    });
    expect(summaries.summaryOf('nobody')).toEqual({
      service_ids: [],
      taxonomy_term_ids: [],
      taxonomy_ids: [],
    });
  });
});
