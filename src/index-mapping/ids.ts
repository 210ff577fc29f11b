/**
 * HSDS ids are UUIDs, which name the same thing in any case (RFC 9562 compares them
 * case-insensitively). Records, and every reference between them, keep the ids their publisher
 * gave: rewriting them at import would have to find and rewrite every reference too. So lookups
 * and id filters try the id as given, lower-cased and upper-cased: a publisher's upper-case ids
 * resolve from lower-case links and the other way round. (Ids in mixed case match only as given.)
 */
export function caseVariants(id: string): string[] {
  return [...new Set([id, id.toLowerCase(), id.toUpperCase()])];
}
