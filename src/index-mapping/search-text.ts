/**
 * The text search reads, made of what a publisher wrote: HTML tags out, character references
 * decoded (`&nbsp;`, `&amp;`, `&#8217;`), white space folded. Feeds put HTML in descriptions (and
 * sometimes `&amp;` in names); indexed as written, `search=nbsp` or `search=strong` would match
 * them. Only the searchable fields go through this: the record is served as published. Pure.
 */
import { decodeHTML } from 'entities';

// A tag is `<` then a letter, `/` or `!` (`<p>`, `</strong>`, `<br/>`, `<!-- -->`): a `<` followed
// by a space or a digit (`age < 5`, `<16s`) is text.
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HIDDEN = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const TAG = /<\/?[a-zA-Z][^<>]*>|<![^<>]*>/g;
const SPACES = /[\s\u200B-\u200D\u2060\uFEFF]+/g;

/** The searchable text of a value: unchanged unless it holds markup, a reference or odd spaces. */
export function toSearchText(value: string): string;
export function toSearchText(value: string | undefined): string | undefined;
export function toSearchText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.includes('<') && !value.includes('&') && !/[\u00A0\u200B-\u200D\u2060\uFEFF]/.test(value)) {
    return value;
  }
  const text = decodeHTML(value.replace(COMMENT, ' ').replace(HIDDEN, ' ').replace(TAG, ' '));
  return text.replace(SPACES, ' ').trim();
}
