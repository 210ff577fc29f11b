/**
 * Mojibake repair (src/ingest/repairs/mojibake.ts): the shapes real exports hold, repaired; ordinary text,
 * accented or not, left as it is.
 */
import { describe, expect, it } from 'vitest';
import { repairMojibake } from '../../../../src/ingest/repairs/mojibake.ts';

describe('repairMojibake', () => {
  it.each([
    // UTF-8 read as CP437, its lead letter then copied as a look-alike (Miami 211's export).
    ['directorGÇÖs office', 'director’s office', 1],
    ['GÇ£on the same dayGÇ¥ GÇô or GÇö next', '“on the same day” – or — next', 4],
    ['GÇÿAbout usGÇÖ', '‘About us’', 2],
    ['Doralba L+ízaro, Lu+¡s, Fay+ºal, Cl+¬ment', 'Doralba Lázaro, Luís, Fayçal, Clément', 4],
    ['ALZConnected-«, 501-¬3, in-áAugust', 'ALZConnected®, 501©3, in\u00a0August', 3],
    // The same read as CP437 without the look-alike step.
    ['directorΓÇÖs', 'director’s', 1],
    // Once more through Latin-1, the lead byte lost on the way (Miami, 9 times).
    ['allows them to -Ç-£identify, cope-Ç-¥ with', 'allows them to “identify, cope” with', 2],
    // UTF-8 read as Windows-1252.
    ['donâ€™t, CafÃ©, â€œquotedâ€\u009d', 'don’t, Café, “quoted”', 4],
  ])('%s', (found, repaired, count) => {
    expect(repairMojibake(found)).toEqual({ text: repaired, count });
  });

  it.each([
    'plain ASCII text, 9-5, C++ and +44',
    'Café, crèche, niño, São Paulo: ordinary accents',
    'call +íntimo', // a plus sign before a word is no mojibake
    '1-½ hours',
    // `¦` stood for two CP437 letters (▒ ñ, │ ó) once copied: which is not ours to guess.
    'Mu+¦oz',
  ])('leaves %s as it is', (text) => {
    expect(repairMojibake(text)).toBeUndefined();
  });
});
