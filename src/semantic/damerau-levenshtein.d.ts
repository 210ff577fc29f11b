declare module 'damerau-levenshtein' {
  /** Damerau-Levenshtein distance: `steps` edits (a swap of two letters is one). */
  export default function distance(
    a: string,
    b: string,
    limit?: number,
  ): { steps: number; relative: number; similarity: number };
}
