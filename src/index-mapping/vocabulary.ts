/**
 * The search vocabulary's rules, read from its files' text: Solr synonym format, one rule a line
 * (`a, b, c` or `a, b => x, y`), `#` starting a comment line. Pure: text in, rules out. The rules
 * go into the read indices' search analyzer (analysis.ts), so they change what queries match
 * without a reindex.
 */

export type VocabularyProblem = { line: number; text: string; reason: string };

export class VocabularyError extends Error {
  readonly problems: VocabularyProblem[];
  constructor(source: string, problems: VocabularyProblem[]) {
    super(
      `${source}: ${problems.length} bad rule(s):\n${problems
        .slice(0, 10)
        .map((p) => `  line ${p.line}: ${p.reason}: ${p.text}`)
        .join('\n')}`,
    );
    this.problems = problems;
  }
}

// What the engine's Solr parser would read as syntax rather than words.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The rules of one file's text; a malformed rule is a VocabularyError naming its line. */
export function parseVocabulary(text: string, source = 'vocabulary'): string[] {
  const rules: string[] = [];
  const problems: VocabularyProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const rule = raw.trim();
    if (rule === '' || rule.startsWith('#')) return;
    const problem = (reason: string) => problems.push({ line: i + 1, text: rule, reason });
    if (CONTROL.test(rule)) return problem('control character');
    const sides = rule.split('=>');
    if (sides.length > 2) return problem('more than one "=>"');
    const terms = sides.map((side) => side.split(',').map((term) => term.trim()));
    if (terms.some((side) => side.some((term) => term === ''))) return problem('an empty term');
    if (sides.length === 1 && (terms[0]?.length ?? 0) < 2) return problem('one term alone says nothing');
    rules.push(terms.map((side) => side.join(', ')).join(' => '));
  });
  if (problems.length > 0) throw new VocabularyError(source, problems);
  return rules;
}

/** The version a vocabulary file declares (`# vocabulary-version: N`), if any. */
export function vocabularyVersion(text: string): string | undefined {
  return /^#\s*vocabulary-version:\s*(\S+)/m.exec(text)?.[1];
}
