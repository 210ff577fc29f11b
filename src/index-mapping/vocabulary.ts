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

// Control characters (tabs aside, which are spaces here): nothing a rule is written with.
const CONTROL = /\p{Cc}/u;

const sidesOf = (rule: string) => rule.split('=>').map((side) => side.split(',').map((term) => term.trim()));

function ruleProblem(rule: string): string | undefined {
  if (CONTROL.test(rule)) return 'control character';
  const sides = sidesOf(rule);
  if (sides.length > 2) return 'more than one "=>"';
  if (sides.some((side) => side.some((term) => term === ''))) return 'an empty term';
  if (sides.length === 1 && (sides[0]?.length ?? 0) < 2) return 'one term alone says nothing';
  return undefined;
}

const normalised = (rule: string) =>
  sidesOf(rule)
    .map((side) => side.join(', '))
    .join(' => ');

/** The rules of one file's text; a malformed rule is a VocabularyError naming its line. */
export function parseVocabulary(text: string, source = 'vocabulary'): string[] {
  const rules: string[] = [];
  const problems: VocabularyProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const rule = raw.replaceAll('\t', ' ').trim();
    if (rule === '' || rule.startsWith('#')) return;
    const reason = ruleProblem(rule);
    if (reason) problems.push({ line: i + 1, text: rule, reason });
    else rules.push(normalised(rule));
  });
  if (problems.length > 0) throw new VocabularyError(source, problems);
  return rules;
}

/** The version a vocabulary file declares (`# vocabulary-version: N`), if any. */
export function vocabularyVersion(text: string): string | undefined {
  return /^#\s*vocabulary-version:\s*(\S+)/m.exec(text)?.[1];
}
