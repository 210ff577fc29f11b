/**
 * The ids a read document nests, and the ids it points at: every `id` and every `*_id` value
 * anywhere in its record. Incremental publishing (ingest/publish.ts) asks the served indices
 * which documents nest a changed record with one terms query on this field, so a changed phone,
 * location, organization or taxonomy term finds every document that shows it. Pure.
 */
const isIdKey = (key: string) => key === 'id' || key.endsWith('_id');

export function nestedIdsOf(record: unknown): string[] {
  const ids = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'string') {
        if (isIdKey(key) && child !== '') ids.add(child);
      } else visit(child);
    }
  };
  visit(record);
  return [...ids];
}
