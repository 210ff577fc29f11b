import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../../../src/api/http/problem.ts';
import { createLargePages, openPageBudget } from '../../../../src/api/lists/large-pages.ts';

const MB = 1024 * 1024;
const limits = { maxBytes: 16 * MB, largeBytes: 2 * MB, maxLargeConcurrent: 2 };

const refusal = (fn: () => void): ApiProblem => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('the budget of a JSON page', () => {
  it('lets small pages through without a slot, however many', () => {
    const pages = createLargePages(limits);
    const budgets = Array.from({ length: 10 }, () => openPageBudget(pages, 'services', 50));
    for (const budget of budgets) budget.take(MB);
    expect(pages.slots.inUse).toBe(0);
  });

  it('gives large pages a slot, and refuses a third at once with 503 and Retry-After', () => {
    const pages = createLargePages(limits);
    const [a, b, c] = [1, 2, 3].map(() => openPageBudget(pages, 'organizations', 1000));
    a!.take(3 * MB);
    b!.expect(3 * MB);
    const refused = refusal(() => c!.take(3 * MB));
    expect(refused.status).toBe(503);
    expect(refused.typeSlug).toBe('too-many-large-pages');
    expect(refused.retryAfterSeconds).toBe(1);
    a!.release();
    a!.release();
    expect(pages.slots.inUse).toBe(1);
    c!.take(0);
    expect(pages.slots.inUse).toBe(2);
  });

  it('refuses a page that would pass PAGE_MAX_BYTES with 413 naming a per_page that fits', () => {
    const pages = createLargePages(limits);
    const budget = openPageBudget(pages, 'organizations full services', 1000);
    budget.take(2.5 * MB);
    const refused = refusal(() => budget.expect(24 * MB));
    expect(refused.status).toBe(413);
    expect(refused.typeSlug).toBe('page-too-large');
    // 1000 × 16 / 26.5, with 30% to spare.
    expect(refused.errors).toEqual([
      { parameter: 'per_page', in: 'query', reason: 'at most 422 for this search' },
    ]);
    expect(refused.detail).toContain('format=ndjson');
  });

  it('takes a slot before reading when pages of its kind were large lately', () => {
    const pages = createLargePages(limits);
    const first = openPageBudget(pages, 'services full', 1000);
    first.take(9 * MB);
    first.served(1000);
    first.release();
    const [a, b] = [1, 2].map(() => openPageBudget(pages, 'services full', 1000));
    expect(pages.slots.inUse).toBe(2);
    expect(refusal(() => openPageBudget(pages, 'services full', 1000)).status).toBe(503);
    // A small page of the same kind needs none.
    openPageBudget(pages, 'services full', 50);
    // Another kind has its own weight.
    openPageBudget(pages, 'services', 1000);
    a!.release();
    b!.release();
  });
});
