/**
 * What a write's outcome answers when it was not made (write.routes.ts): each refusal of
 * src/ingest/write/write.ts (given as RecordWrites, record-writes.ts) as the problem+json it is, with its
 * status. A written or deleted record is answered by the route itself.
 */
import { ApiProblem, type ParameterError } from '../http/problem.ts';
import type { WriteIssue, WriteOutcome } from './record-writes.ts';

/** An import issue as one entry of a problem's `errors[]`. */
const asError = (issue: WriteIssue): ParameterError => ({
  parameter: issue.path || '(body)',
  in: 'body',
  reason: issue.reason,
  severity: issue.severity,
  kind: issue.kind,
  ...(issue.record_type ? { record_type: issue.record_type } : {}),
  ...(issue.record_id ? { record_id: issue.record_id } : {}),
  ...(issue.value ? { value: issue.value } : {}),
});

/** At most this many of a body's errors are listed (`errors_total` counts them all). */
const MAX_LISTED_ERRORS = 100;

/** A 400 listing the first MAX_LISTED_ERRORS issues, and how many more there were. */
function invalidRecord(noun: string, issues: readonly WriteIssue[]): ApiProblem {
  const listed = issues.slice(0, MAX_LISTED_ERRORS);
  const more = issues.length - listed.length;
  const named = listed.map((i) => `${i.path || '(body)'}: ${i.reason}`).join('; ');
  return new ApiProblem(
    400,
    `the ${noun} was not written: ${named}${more > 0 ? `; and ${more} more (${issues.length} in all)` : ''}`,
    {
      errors: listed.map(asError),
      ...(more > 0 ? { errorsTotal: issues.length } : {}),
      type: 'invalid-record',
    },
  );
}

type Refused = Exclude<WriteOutcome, { kind: 'written' } | { kind: 'deleted' }>;
type Refusals = {
  [K in Refused['kind']]: (outcome: Extract<Refused, { kind: K }>, noun: string, id: string) => ApiProblem;
};

const refusals: Refusals = {
  rejected: (outcome, noun) => invalidRecord(noun, outcome.issues),
  'too-large': (outcome, noun) =>
    new ApiProblem(413, `the ${noun} was not written: ${outcome.reason}`, {
      errors: [{ parameter: '(body)', in: 'body', reason: outcome.reason }],
    }),
  busy: (outcome, noun, id) =>
    new ApiProblem(503, `the ${noun} ${id} was not written: ${outcome.reason}; nothing was written`, {
      type: 'writes-busy',
      title: 'Writes busy',
      retryAfterSeconds: Math.max(1, Math.ceil(outcome.waitedMs / 1000)),
    }),
  'precondition-failed': (_, noun, id) =>
    new ApiProblem(
      412,
      `the ${noun} ${id} changed since the version named in If-Match (or exists, with If-None-Match: *)`,
    ),
  'not-found': (_, noun, id) => new ApiProblem(404, `no ${noun} ${id}`),
};

/** The problem a write's outcome answers, or undefined when the write was made. */
export function writeRefusal(outcome: WriteOutcome, noun: string, id: string): ApiProblem | undefined {
  if (outcome.kind === 'written' || outcome.kind === 'deleted') return undefined;
  const refusal = refusals[outcome.kind] as (outcome: Refused, noun: string, id: string) => ApiProblem;
  return refusal(outcome, noun, id);
}
