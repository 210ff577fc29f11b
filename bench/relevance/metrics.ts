/**
 * Relevance measures over a judged set, pure: nDCG@k (graded gains 2^g - 1, log2 discount),
 * recall@k and the zero-result rate, per query and averaged per class. A query judged to find
 * nothing scores 1 when it finds nothing and 0 otherwise.
 */
export const K = 10;

/** A judged query of either set: grades by service key, 2 or 1; every other service is 0. */
export type JudgedQuery = { query: string; class: string; grades: Readonly<Record<string, number>> };

export type QueryScore = {
  query: string;
  class: string;
  ndcg: number;
  /** Undefined for queries that should find nothing. */
  recall: number | undefined;
  total: number;
  /** Keys of the first results, `?` for a service outside the judgments' corpus. */
  top: string[];
};

const gain = (grade: number) => 2 ** grade - 1;
const discounted = (grades: readonly number[]) =>
  grades.slice(0, K).reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);

export function scoreQuery(judgment: JudgedQuery, resultKeys: readonly string[], total: number): QueryScore {
  const top = resultKeys.slice(0, K);
  const grades = Object.values(judgment.grades);
  const base = { query: judgment.query, class: judgment.class, total, top };
  if (grades.length === 0) return { ...base, ndcg: total === 0 ? 1 : 0, recall: undefined };
  const ideal = discounted([...grades].sort((a, b) => b - a));
  const ndcg = discounted(top.map((key) => judgment.grades[key] ?? 0)) / ideal;
  const found = top.filter((key) => (judgment.grades[key] ?? 0) > 0).length;
  return { ...base, ndcg, recall: found / Math.min(grades.length, K) };
}

export type Summary = {
  queries: number;
  ndcg: number;
  recall: number;
  /** Share of the queries that should find something and found nothing. */
  zeroResultRate: number;
  /** Share of the queries that should find nothing and found something. */
  falseHitRate: number;
};

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

export function summarise(scores: readonly QueryScore[]): Summary {
  const shouldFind = scores.filter((s) => s.recall !== undefined);
  const shouldNot = scores.filter((s) => s.recall === undefined);
  return {
    queries: scores.length,
    ndcg: mean(scores.map((s) => s.ndcg)),
    recall: mean(shouldFind.map((s) => s.recall as number)),
    zeroResultRate: shouldFind.length
      ? shouldFind.filter((s) => s.total === 0).length / shouldFind.length
      : 0,
    falseHitRate: shouldNot.length ? shouldNot.filter((s) => s.total > 0).length / shouldNot.length : 0,
  };
}
