/**
 * The shipped needs (vocabulary/needs.txt): what people in need say, and the words a directory
 * entry that meets the need uses. Pure: text in, needs out.
 */
import { readFileSync } from 'node:fs';

export type Need = {
  name: string;
  /** A risk to life or safety: its matching crisis services are shown first. */
  crisis: boolean;
  /** How people put it: each is compared by meaning with what they type. */
  phrasings: string[];
  /** Phrases an entry that meets the need uses (searched when a query means the need). */
  phrases: string[];
};

export const NEEDS_FILE = new URL('../../vocabulary/needs.txt', import.meta.url);

/** The needs of a file in the needs.txt format; a line that is not one is an error naming it. */
export function parseNeeds(text: string, origin = 'needs file'): Need[] {
  const needs: Need[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split('|').map((p) => p.trim());
    if (parts.length !== 3)
      throw new Error(`${origin} line ${index + 1}: expected "name | phrasings | words"`);
    const [head, phrasings, phrases] = parts as [string, string, string];
    const crisis = /\s!crisis$/.test(head);
    const name = head.replace(/\s*!crisis$/, '').trim();
    const list = (value: string, separator: string) =>
      value
        .split(separator)
        .map((v) => v.trim())
        .filter(Boolean);
    needs.push({ name, crisis, phrasings: list(phrasings, ';'), phrases: list(phrases, ',') });
  }
  return needs;
}

/** The shipped needs. */
export function shippedNeeds(): Need[] {
  return parseNeeds(readFileSync(NEEDS_FILE, 'utf8'), 'vocabulary/needs.txt');
}
