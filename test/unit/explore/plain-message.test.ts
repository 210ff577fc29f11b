/**
 * /explore is for the public: what it shows for an error is plain words chosen by the problem's
 * type, never the problem's `detail` (a geocoder's internal reason, parameter names), with the
 * request id as a reference when the fault is the server's, whose logs hold the details.
 */
import { describe, expect, it } from 'vitest';
import { plainMessage } from '../../../src/explore/api.js';

const problem = (slug: string, status: number, detail: string, parameter?: string) => ({
  type: `https://hsds-directory.dev/problems/${slug}`,
  status,
  detail,
  request_id: 'req-123',
  ...(parameter ? { errors: [{ parameter, in: 'query', reason: detail }] } : {}),
});

describe('plainMessage', () => {
  it('never shows the problem detail', () => {
    const cases = [
      problem(
        'geocoder-unavailable',
        503,
        'postcode: no geocoder could place "AB10 1AB" (postcodes-io: HTTP 502 from 10.0.0.7)',
      ),
      problem(
        'unknown-postcode',
        400,
        'postcode: no geocoder on this server knows it (asked: postcode-index)',
        'postcode',
      ),
      problem('invalid-parameter', 400, 'postcode: must be a UK postcode', 'postcode'),
      problem('invalid-parameter', 400, 'per_page: must be at most 1000', 'per_page'),
      problem('engine-unavailable', 503, 'the search engine is unavailable; try again shortly'),
      problem('internal-error', 500, 'an unexpected error occurred; it has been logged'),
    ];
    for (const p of cases) {
      const message = plainMessage(p.status, p);
      expect(message).not.toContain(p.detail);
      expect(message).not.toMatch(/geocoder|postcodes-io|per_page|10\.0\.0\.7/);
    }
  });

  it('says what to do, with a reference when the fault is ours', () => {
    expect(plainMessage(503, problem('geocoder-unavailable', 503, 'x'))).toBe(
      'We cannot look up postcodes just now. Try again in a few minutes, or search without a postcode. (Reference: req-123)',
    );
    expect(plainMessage(400, problem('unknown-postcode', 400, 'x', 'postcode'))).toMatch(
      /could not find that postcode/,
    );
    expect(plainMessage(400, problem('unknown-postcode', 400, 'x', 'postcode'))).not.toContain('req-123');
    expect(plainMessage(500, problem('internal-error', 500, 'x'))).toContain('(Reference: req-123)');
    expect(plainMessage(502, undefined)).toBe('Something went wrong on our side. Try again later.');
  });
});
