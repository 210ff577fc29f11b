/**
 * Mojibake: UTF-8 text that a publisher's tool read as a one-byte code page and wrote out again,
 * so `’` (bytes E2 80 99) arrives as `â€™` (Windows-1252) or `ΓÇÖ` (the DOS code page 437), each
 * letter stored as valid UTF-8. The file is valid UTF-8 (sources/text-encoding.ts reads it right);
 * the damage is in the text itself. Miami 211's export went one step further: the lead byte's
 * CP437 letter, absent from the code page it was then saved in, was replaced by its look-alike
 * (`Γ` → `G`, `├` → `+`, `┬` → `-`), giving `directorGÇÖs` for `director’s`.
 *
 * Only the shapes that cannot be ordinary text are repaired: a lead letter followed by the letter
 * of a UTF-8 continuation byte (0x80-0xBF) of the same code page. The pairs repaired are the
 * two-byte sequences C2 xx and C3 xx (U+00A0-U+00FF: accents, ®, no-break space) and the
 * three-byte E2 80 xx (U+2000-U+203F: quotes, dashes, ellipsis). Pure; a string without any
 * non-ASCII character pays one character scan.
 */

// CP437 0x80-0xBF, in byte order: the continuation bytes as that code page shows them.
const CP437_HIGH = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐';
// Windows-1252 0x80-0xBF (its five undefined bytes are C1 controls in the decoder, as here).
const CP1252_HIGH = new TextDecoder('windows-1252').decode(
  Uint8Array.from({ length: 0x40 }, (_, i) => 0x80 + i),
);

const byteOf437 = new Map([...CP437_HIGH].map((c, i) => [c, 0x80 + i]));
const byteOf1252 = new Map([...CP1252_HIGH].map((c, i) => [c, 0x80 + i]));
// The look-alike copy loses `⌐` (0xA9) to `¬` too: in Miami's names `M+¬rida` is `Mérida`.
const byteOfLookAlike = new Map(byteOf437).set('¬', 0xa9);

const asClass = (chars: Iterable<string>) =>
  [...chars].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const TAIL_437 = asClass(byteOf437.keys());
const TAIL_1252 = asClass(byteOf1252.keys());
// After a look-alike `-` only the bytes seen in real exports (no-break space, ©, ®): `1-½` and
// `-ó` are ordinary text often enough.
const TAIL_DASH = asClass(['á', '¬', '«']);
// After `+` (only inside a word, where a plus sign is no sign), box drawing (0xB0-0xBF) is ambiguous once copied (`▒` and `│` both became `¦`).
const TAIL_PLUS = asClass([...CP437_HIGH.slice(0, 0x30)]);

type Family = { lead: number; min: number; bytes: ReadonlyMap<string, number> };

// Each alternative names its family by the capture group that matched.
const PATTERN = new RegExp(
  [
    `(?:Γ|G)Ç([${TAIL_437}])`, // E2 80 xx, CP437 (and its look-alike copy)
    `-Ç-([${TAIL_437}])`, // the same once more through Latin-1, its E2 lost: `cope-Ç-¥ with`
    `├([${TAIL_437}])`, // C3 xx
    `(?<=[A-Za-z\\u00c0-\\u024f])\\+([${TAIL_PLUS}])`, // inside a word: `Mu+ñoz`, not `+ínfo`
    `┬([${TAIL_437}])`, // C2 xx
    `-([${TAIL_DASH}])`,
    `â€([${TAIL_1252}])`, // E2 80 xx, Windows-1252
    `Ã([${TAIL_1252}])`, // C3 xx
    `Â([${TAIL_1252}])`, // C2 xx
  ].join('|'),
  'g',
);

const families: readonly Family[] = [
  { lead: 0x2000, min: 0x80, bytes: byteOf437 },
  { lead: 0x2000, min: 0x80, bytes: byteOf437 },
  { lead: 0xc0, min: 0x80, bytes: byteOf437 },
  { lead: 0xc0, min: 0x80, bytes: byteOfLookAlike },
  { lead: 0x80, min: 0xa0, bytes: byteOf437 },
  { lead: 0x80, min: 0xa0, bytes: byteOfLookAlike },
  { lead: 0x2000, min: 0x80, bytes: byteOf1252 },
  { lead: 0xc0, min: 0x80, bytes: byteOf1252 },
  { lead: 0x80, min: 0xa0, bytes: byteOf1252 },
];

const NON_ASCII = /[\u0080-\uffff]/;
// A lead letter of some family, or a look-alike lead before a continuation letter: text with
// accents or a pound sign alone (`Café`, `£5`) stops here, before the repair's larger pattern.
const MARKERS = /[ÇÃÂ€├┬]|[+-][\u00a0-\u00ff]/;

/**
 * The text with its mojibake repaired and how many sequences were, or `undefined` when there was
 * none (the usual case, decided by one scan when the text is ASCII).
 */
export function repairMojibake(text: string): { text: string; count: number } | undefined {
  if (!NON_ASCII.test(text) || !MARKERS.test(text)) return undefined;
  let count = 0;
  const out = text.replace(PATTERN, (match, ...groups: unknown[]) => {
    for (let i = 0; i < families.length; i += 1) {
      const tail = groups[i];
      if (typeof tail !== 'string') continue;
      const { lead, min, bytes } = families[i]!;
      const byte = bytes.get(tail);
      if (byte === undefined || byte < min) return match;
      count += 1;
      // The UTF-8 sequence's code point: a continuation byte adds its low six bits to the lead's.
      return String.fromCharCode(lead + (byte - 0x80));
    }
    return match;
  });
  return count === 0 ? undefined : { text: out, count };
}
