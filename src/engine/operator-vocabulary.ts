/**
 * Operator rules (`vocabulary-rule:<id>` in the control index): synonym rules an administrator
 * adds while the server runs (POST /admin/vocabulary/rules, from the console's Search gaps page),
 * in the syntax of SYNONYMS_FILE. Kept in the engine, not a file, so every process sharing it and
 * every later build searches with them; the configured rules (shipped files and SYNONYMS_FILE)
 * stay configuration. What indices are built and reloaded with: configured + stored + taxonomy.
 */
import { randomUUID } from 'node:crypto';
import { controlKindBody } from '../index-mapping/control.query.ts';
import { parseVocabulary } from '../index-mapping/vocabulary.ts';
import { controlIndex, isConflict, searchControl, withControlIndex } from './control-index.ts';
import { type Engine, engineCall } from './engine.ts';
import { EngineNotFoundError } from './errors.ts';

export type OperatorRule = { id: string; rule: string; created_at: string };

const KIND = 'vocabulary-rule' as const;
const docId = (id: string) => `${KIND}:${id}`;

// Rules are few (each is typed by a person); a thousand bounds what one read returns.
export const MAX_OPERATOR_RULES = 1000;

/**
 * One rule as written, checked by the parser of SYNONYMS_FILE lines (so a rule accepted here is
 * one a file could hold): its normal form, or a VocabularyError naming the reason.
 */
export function parseOperatorRule(text: string): string {
  if (/[\r\n]/.test(text)) throw new OperatorRuleError('one rule, not several lines');
  const rules = parseVocabulary(text, 'rule');
  const [rule] = rules;
  if (rule === undefined) throw new OperatorRuleError('a rule is needed, not a blank line or a comment');
  return rule;
}

/** A rule text that is not one rule (a blank, a comment, several lines). */
export class OperatorRuleError extends Error {}

/** The stored rules, oldest first; none when the control index does not exist yet. */
export async function listOperatorRules(engine: Engine): Promise<OperatorRule[]> {
  return searchControl<OperatorRule>(
    engine,
    'read the operator vocabulary rules',
    controlKindBody(KIND, MAX_OPERATOR_RULES, true),
  );
}

/** The stored rules' texts, as index settings take them. */
export async function operatorVocabulary(engine: Engine): Promise<string[]> {
  return (await listOperatorRules(engine)).map((r) => r.rule);
}

/** Stores a rule (already parsed by parseOperatorRule). */
export async function storeOperatorRule(
  engine: Engine,
  rule: string,
  now = new Date(),
): Promise<OperatorRule> {
  const stored: OperatorRule = { id: randomUUID(), rule, created_at: now.toISOString() };
  await withControlIndex(engine, () =>
    engineCall('store an operator vocabulary rule', () =>
      engine.client.index({
        index: controlIndex(engine),
        id: docId(stored.id),
        op_type: 'create',
        refresh: 'wait_for',
        body: { kind: KIND, at: now.getTime(), data: stored },
      }),
    ),
  );
  return stored;
}

/** Removes a stored rule: false when there was none with this id. */
export async function removeOperatorRule(engine: Engine, id: string): Promise<boolean> {
  try {
    const { body } = await engineCall('remove an operator vocabulary rule', () =>
      engine.client.delete({ index: controlIndex(engine), id: docId(id), refresh: 'wait_for' }),
    );
    return body.result === 'deleted';
  } catch (error) {
    if (error instanceof EngineNotFoundError || isConflict(error)) return false;
    throw error;
  }
}
