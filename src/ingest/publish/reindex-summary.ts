import type { PublishReport } from './publish.ts';
import type { ReindexReport } from './reindex.ts';

/** The terminal summary of an incremental publish. */
export function formatPublishSummary(report: PublishReport): string {
  const counts = Object.entries(report.indices)
    .filter(([, c]) => c.written + c.deleted > 0)
    .map(([kind, c]) => `${kind} ${c.written} written${c.deleted ? `, ${c.deleted} deleted` : ''}`)
    .join('; ');
  return [
    `Published ${report.changed_records} changed records in ${(report.ms / 1000).toFixed(1)} s: ${counts || 'no document changed'}`,
    ...(report.tombstones.written > 0
      ? [`  ${report.tombstones.written} deletions recorded in the change feed`]
      : []),
  ].join('\n');
}

/** The terminal summary of a reindex. */
export function formatReindexSummary(report: ReindexReport): string {
  const counts = Object.entries(report.counts)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const lines = [
    `Reindexed ${report.records_read} records into version ${report.version} in ${(report.ms / 1000).toFixed(1)} s: ${counts}`,
    `  aliases swapped atomically; previous version kept for rollback${
      Object.keys(report.previous).length > 0
        ? ` (${Object.values(report.previous)[0]}...)`
        : ' (none: first build)'
    }`,
  ];
  if (report.removed.length > 0) lines.push(`  removed ${report.removed.length} old or half-built indices`);
  if (report.unresolved_references > 0) {
    lines.push(`  ${report.unresolved_references} references point at records the store does not hold`);
  }
  return lines.join('\n');
}
