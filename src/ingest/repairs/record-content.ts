/**
 * A record's content as one text, what a stable minted id is made of: its fields in name order,
 * `id` and absent values aside, text trimmed, other values as JSON. One rule for the rows of a
 * tabular source and the records of a nested one, so a record gets the same content whichever
 * way it came.
 */
export function recordContent(fields: Record<string, unknown>): string {
  return Object.keys(fields)
    .filter((key) => key !== 'id' && fields[key] !== undefined && fields[key] !== null)
    .sort()
    .map((key) => {
      const value = fields[key];
      return `${key}=${typeof value === 'string' ? value.trim() : JSON.stringify(value)}`;
    })
    .join('\u001f');
}
