/** Printing and saving benchmark results. */
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A plain text table: first row is the header; columns after the first are right-aligned. */
export function formatTable(rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/**
 * Opens bench/results/<name>.log for a server's output (its warnings and errors, so that a run's
 * non-2xx answers can be explained): the file descriptor to hand to `spawn` (close it once
 * spawned: the child holds its own), and the file's path.
 */
export function openServerLog(name: string): { fd: number; path: string } {
  const dir = new URL('../results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.log`);
  return { fd: openSync(path, 'w'), path };
}

/** Writes the results as JSON under bench/results/ (git-ignored) and returns the file. */
export function writeResults(name: string, results: unknown): string {
  const dir = new URL('../results/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

/** Samples the process's resident set size; `stop()` answers the peak in bytes. */
export function sampleRss(intervalMs = 25): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}
