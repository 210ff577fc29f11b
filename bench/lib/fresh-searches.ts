/**
 * Searches nobody asked before: texts of one to four words drawn from a dataset's own vocabulary,
 * afresh each run from a seed the run prints. A repeated search is answered from caches (the
 * engine's request cache, the API's meaning cache); most of what people type is new, and only a
 * fresh set measures that (issue 53).
 *
 * Words are drawn in proportion to the number of services that hold them, so a drawn pair is as
 * likely to find something as two words a person picks from what the directory says.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Words too common or too empty to be a search on their own. */
const STOP_WORDS = new Set(
  'the and for with who are our any can has have from this that into its you your their they them all not but was were will one two per via also more than such what when where which while about'.split(
    ' ',
  ),
);

export type Vocabulary = { words: string[]; servicesHolding: number[] };

/**
 * The words of services' names and descriptions, each with how many of the first `lines` services
 * hold it; words held by fewer than `minServices` are left out (a typo or a name of one place).
 */
export async function vocabularyOf(
  file: string,
  options: { lines?: number; minServices?: number } = {},
): Promise<Vocabulary> {
  const maxLines = options.lines ?? 20_000;
  const minServices = options.minServices ?? 20;
  const holding = new Map<string, number>();
  const input = createReadStream(file, 'utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  let read = 0;
  for await (const line of lines) {
    if (read++ >= maxLines) break;
    const service = JSON.parse(line) as { name?: string; description?: string };
    const words = new Set(
      `${service.name ?? ''} ${service.description ?? ''}`
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
    );
    for (const w of words) holding.set(w, (holding.get(w) ?? 0) + 1);
  }
  input.destroy();
  const kept = [...holding].filter(([, n]) => n >= minServices).sort((a, b) => b[1] - a[1]);
  return { words: kept.map(([w]) => w), servicesHolding: kept.map(([, n]) => n) };
}

/** A seeded generator of numbers in [0, 1) (xorshift32). */
export function randomOf(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/**
 * `count` distinct search texts of `words` words each (a range: one to four draws each text's
 * length), no word twice in a text, words drawn in proportion to the services holding them.
 */
export function drawSearches(
  vocabulary: Vocabulary,
  options: { count: number; words: { min: number; max: number }; seed: number },
): string[] {
  const { words, servicesHolding } = vocabulary;
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cumulative[i] = sum += servicesHolding[i]!;
  const random = randomOf(options.seed);
  const pick = () => {
    const target = random() * sum;
    let low = 0;
    let high = words.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return words[low]!;
  };
  const { min, max } = options.words;
  const texts = new Set<string>();
  // Bounded: a small vocabulary may hold fewer distinct texts than asked for.
  for (let tries = 0; texts.size < options.count && tries < options.count * 20; tries++) {
    const length = min + Math.floor(random() * (max - min + 1));
    const text = new Set<string>();
    for (let i = 0; text.size < Math.min(length, words.length) && i < length * 10; i++) text.add(pick());
    texts.add([...text].join(' '));
  }
  return [...texts];
}

/** A seeded shuffle (Fisher-Yates), a copy. */
export function shuffledBy<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = randomOf(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
