/**
 * Finding duplicates among candidates of one type, in two steps:
 *
 * 1. **Blocking.** Each record gets a few keys: its normalised postcodes, phone digits, e-mails,
 *    its whole normalised name, each of its name's words, and each word with each postcode. Only records that share a key are
 *    compared. A key shared by more than `maxBlock` records says too little to be worth comparing
 *    all of them (a common word, a switchboard number, a shopping centre's postcode): it is
 *    skipped, and those records are still compared through their other keys. So comparisons grow
 *    with the number of records times `maxBlock`, never with its square: 100,000 services are
 *    compared in seconds.
 * 2. **Scoring.** Each pair sharing a key is scored from the evidence (scorePair), and pairs at or
 *    above the threshold are listed. Pairs whose records come from the same sources only are not
 *    listed: the issue is the same record published by two sources under different ids.
 */
import type { DuplicateCandidate, DuplicateType } from './features.ts';
import { nameSimilarity } from './normalize.ts';

export type EvidenceField = 'name' | 'postcode' | 'address' | 'phone' | 'email' | 'website';

/** One comparison behind a score: what each record has, and what it did to the score. */
export type Evidence = {
  field: EvidenceField;
  /** `same`: equal once normalised; `similar`: alike (a name or address line); `different`: both have one, none agree. */
  outcome: 'same' | 'similar' | 'different';
  a: string[];
  b: string[];
  /** 0..1 for names and address lines. */
  similarity?: number;
  /** What it added to (or took from) the score. */
  weight: number;
};

export type DuplicatePair = {
  type: DuplicateType;
  /** The two ids, in string order. */
  ids: [string, string];
  score: number;
  records: { id: string; name: string; sources: string[] }[];
  evidence: Evidence[];
};

export type DetectOptions = {
  /** Pairs scoring this or more are listed (default DEFAULT_THRESHOLD). */
  threshold?: number;
  /** Keys shared by more records than this are not used to pair them (default 50). */
  maxBlock?: number;
  /** Pairs to leave out (already marked): `pairKey` of each. */
  skip?: ReadonlySet<string>;
};

export type DetectReport = { pairs: DuplicatePair[]; compared: number; skippedBlocks: number };

export const DEFAULT_THRESHOLD = 0.6;

// Weights. A name alone never makes a duplicate (two branches of one charity share it): the
// places and contacts must agree too, and a different postcode counts heavily against.
const W = {
  name: 0.4,
  postcodeSame: 0.25,
  postcodeDifferent: -0.35,
  address: 0.1,
  phoneSame: 0.2,
  phoneDifferent: -0.1,
  emailSame: 0.15,
  emailDifferent: -0.05,
  website: 0.05,
};
// Below this name similarity the pair is not the same record, whatever else agrees: services
// that share a building share its postcode, address and often its phone.
const NAME_GATE = 0.5;
const GATED_CEILING = 0.45;

/** The key of an unordered pair of ids of one type. */
export const pairKey = (type: string, a: string, b: string) =>
  a < b ? `${type}:${a}|${b}` : `${type}:${b}|${a}`;

const round = (n: number) => Math.round(n * 1000) / 1000;
const shares = (a: readonly string[], b: readonly string[]) => a.some((v) => b.includes(v));

/** The score of two records and its evidence (pure; exported for tests and the bench). */
export function scorePair(
  a: DuplicateCandidate,
  b: DuplicateCandidate,
): { score: number; evidence: Evidence[] } {
  const evidence: Evidence[] = [];
  let score = 0;
  const add = (item: Omit<Evidence, 'weight'>, weight: number) => {
    evidence.push({ ...item, weight: round(weight) });
    score += weight;
  };
  const nameSim = nameSimilarity(a.nameWords, b.nameWords);
  add(
    {
      field: 'name',
      outcome: nameSim === 1 ? 'same' : nameSim >= NAME_GATE ? 'similar' : 'different',
      a: [a.name],
      b: [b.name],
      similarity: nameSim,
    },
    W.name * nameSim,
  );
  const exact = (field: EvidenceField, x: string[], y: string[], same: number, different: number) => {
    if (x.length === 0 || y.length === 0) return;
    if (shares(x, y)) add({ field, outcome: 'same', a: x, b: y }, same);
    else if (different !== 0) add({ field, outcome: 'different', a: x, b: y }, different);
  };
  exact('postcode', a.postcodes, b.postcodes, W.postcodeSame, W.postcodeDifferent);
  // Address lines count where the postcodes agree: the same street in another town is no evidence.
  if (shares(a.postcodes, b.postcodes)) {
    let best = 0;
    let lines: [string, string] | undefined;
    for (const x of a.addresses) {
      for (const y of b.addresses) {
        if (!x.postcode || x.postcode !== y.postcode || !x.words.length || !y.words.length) continue;
        const sim = nameSimilarity(x.words, y.words);
        if (sim > best) [best, lines] = [sim, [x.line, y.line]];
      }
    }
    if (lines) {
      add(
        {
          field: 'address',
          outcome: best === 1 ? 'same' : best >= 0.5 ? 'similar' : 'different',
          a: [lines[0]],
          b: [lines[1]],
          similarity: best,
        },
        W.address * best,
      );
    }
  }
  exact('phone', a.phones, b.phones, W.phoneSame, W.phoneDifferent);
  exact('email', a.emails, b.emails, W.emailSame, W.emailDifferent);
  exact('website', a.hosts, b.hosts, W.website, 0);
  score = Math.max(0, Math.min(1, score));
  if (nameSim < NAME_GATE) score = Math.min(score, GATED_CEILING);
  return { score: round(score), evidence };
}

function blockingKeys(c: DuplicateCandidate): string[] {
  const keys = [
    ...c.postcodes.map((p) => `postcode:${p}`),
    ...c.phones.map((p) => `phone:${p}`),
    ...c.emails.map((e) => `email:${e}`),
    ...new Set(c.nameWords.map((w) => `word:${w}`)),
    // A word of the name at a postcode: small blocks where a busy postcode or a common word
    // alone makes a block too large to use.
    ...c.postcodes.flatMap((p) => [...new Set(c.nameWords)].map((w) => `place-word:${p}:${w}`)),
  ];
  if (c.nameWords.length > 0) keys.push(`name:${[...new Set(c.nameWords)].sort().join(' ')}`);
  return keys;
}

const sameSources = (a: DuplicateCandidate, b: DuplicateCandidate) =>
  a.sources.length === b.sources.length && a.sources.every((s, i) => s === b.sources[i]);

/** The duplicate pairs among candidates of one type, best first. */
export function detectDuplicates(
  candidates: readonly DuplicateCandidate[],
  options: DetectOptions = {},
): DetectReport {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const maxBlock = options.maxBlock ?? 50;
  const blocks = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    for (const key of blockingKeys(c)) {
      const block = blocks.get(key);
      if (!block) blocks.set(key, [i]);
      // A block past the cap stops growing: it is skipped whole.
      else if (block.length <= maxBlock) block.push(i);
    }
  });
  const seen = new Set<string>();
  const pairs: DuplicatePair[] = [];
  let compared = 0;
  let skippedBlocks = 0;
  for (const block of blocks.values()) {
    if (block.length < 2) continue;
    if (block.length > maxBlock) {
      skippedBlocks += 1;
      continue;
    }
    for (let i = 0; i < block.length; i += 1) {
      for (let j = i + 1; j < block.length; j += 1) {
        const a = candidates[block[i]!]!;
        const b = candidates[block[j]!]!;
        if (a.id === b.id || sameSources(a, b)) continue;
        const key = pairKey(a.type, a.id, b.id);
        if (seen.has(key)) continue;
        seen.add(key);
        if (options.skip?.has(key)) continue;
        compared += 1;
        // Scored in id order, so the evidence's `a` and `b` are `ids[0]` and `ids[1]`.
        const [first, second] = a.id < b.id ? [a, b] : [b, a];
        const { score, evidence } = scorePair(first, second);
        if (score < threshold) continue;
        pairs.push({
          type: a.type,
          ids: [first.id, second.id],
          score,
          records: [first, second].map((r) => ({ id: r.id, name: r.name, sources: r.sources })),
          evidence,
        });
      }
    }
  }
  pairs.sort((x, y) => y.score - x.score || (x.ids[0] < y.ids[0] ? -1 : 1));
  return { pairs, compared, skippedBlocks };
}
