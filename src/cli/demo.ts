import type { Runtime } from './runtime.ts';

/** Loads the demo dataset when the read indices are empty (filled in by the ingest pipeline). */
export async function loadDemoIfEmpty(runtime: Runtime): Promise<void> {
  runtime.logger.warn('demo data loading is not wired yet');
}
