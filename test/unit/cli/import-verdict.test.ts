/**
 * `hsds import` ends with a verdict in validate's words, its exit code the same verdict: it used to
 * exit 0 whether or not records were rejected, and said nothing at the end.
 */
import { describe, expect, it } from 'vitest';
import { formatImportVerdict, IMPORT_EXIT_CODES, importVerdict } from '../../../src/cli/import-verdict.ts';

const counts = (items: number, records: number, repaired: number, rejected: number) => ({
  items,
  records,
  repaired,
  rejected,
});

describe('the import verdict', () => {
  it('tells as published, repaired, some rejected and failed apart', () => {
    expect(importVerdict(counts(1, 23, 0, 0))).toBe('clean');
    expect(importVerdict(counts(3, 5, 5, 0))).toBe('repaired');
    expect(importVerdict(counts(3, 3, 0, 1))).toBe('rejected-some');
    expect(importVerdict(counts(2, 0, 0, 2))).toBe('failed');
    // An empty source is not a failure: nothing to keep, nothing rejected.
    expect(importVerdict(counts(0, 0, 0, 0))).toBe('clean');
  });

  it('exits 0 when every record was kept, 3 when some were rejected, 1 when none was kept', () => {
    expect(IMPORT_EXIT_CODES).toEqual({ clean: 0, repaired: 0, 'rejected-some': 3, failed: 1 });
  });

  it('says it in one line, pointing at the report when something was rejected', () => {
    expect(formatImportVerdict(counts(3, 5, 5, 0))).toBe(
      'IMPORTED WITH REPAIRS: 5 records kept (5 repaired), 0 rejected, from 3 items',
    );
    expect(formatImportVerdict(counts(3, 3, 0, 1), 'reports/x.json')).toBe(
      'IMPORTED, SOME RECORDS REJECTED: 3 records kept (0 repaired), 1 rejected, from 3 items; each rejection and why in reports/x.json',
    );
    expect(formatImportVerdict(counts(2, 0, 0, 2))).toMatch(/^NOT IMPORTED: 0 records kept/);
    expect(formatImportVerdict(counts(1, 23, 0, 0))).toMatch(/^IMPORTED AS PUBLISHED: /);
  });
});
