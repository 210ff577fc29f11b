/** The q-quantile of sorted values (0 for none): the benchmarks' medians and p99s. */
export const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
