import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/*
 * The statement PDF's fonts: Noto Sans and Noto Sans Bengali as the @fontsource npm packages
 * ship them (SIL Open Font License; pinned in package-lock.json, so every build embeds the same
 * files). Fontsource splits each family into script subsets with the Unicode ranges of each in
 * its unicode.json; a text is drawn in runs, each in the first subset that covers its
 * characters, so a holder's name in Bengali, Cyrillic or Greek prints as written. The WOFF
 * files, not WOFF2: pdfkit's subsetter (fontkit) fails on some WOFF2 glyphs.
 */

export type FontWeight = 400 | 700;

interface Face {
  /** The name pdfkit knows it by. */
  name: string;
  file: string;
  ranges: [number, number][];
}

const require = createRequire(import.meta.url);

/** Subsets in the order a character is looked up. */
const FAMILIES = [
  { pkg: '@fontsource/noto-sans', stem: 'noto-sans', subsets: ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese', 'devanagari'] },
  { pkg: '@fontsource/noto-sans-bengali', stem: 'noto-sans-bengali', subsets: ['bengali'] },
] as const;

function parseRanges(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from!, 16), Number.parseInt(to ?? from!, 16)];
  });
}

const faces = new Map<FontWeight, Face[]>();

/** The subsets of one weight, with their files; read once. */
export function fontFaces(weight: FontWeight): Face[] {
  let list = faces.get(weight);
  if (!list) {
    list = FAMILIES.flatMap((family) => {
      const directory = path.dirname(require.resolve(`${family.pkg}/unicode.json`));
      const unicode = JSON.parse(readFileSync(path.join(directory, 'unicode.json'), 'utf8')) as Record<string, string>;
      return family.subsets.map((subset) => ({
        name: `${family.stem}-${subset}-${weight}`,
        file: path.join(directory, 'files', `${family.stem}-${subset}-${weight}-normal.woff`),
        ranges: parseRanges(unicode[subset]!),
      }));
    });
    faces.set(weight, list);
  }
  return list;
}

const covers = (face: Face, codePoint: number) => face.ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

/** The text cut into runs, each with the face that draws it (a run keeps its face while the face covers the next character). */
export function fontRuns(text: string, weight: FontWeight): { face: string; text: string }[] {
  const list = fontFaces(weight);
  const runs: { face: string; text: string }[] = [];
  let current: Face = list[0]!;
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    if (!covers(current, codePoint)) current = list.find((face) => covers(face, codePoint)) ?? list[0]!;
    const last = runs.at(-1);
    if (last && last.face === current.name) last.text += character;
    else runs.push({ face: current.name, text: character });
  }
  return runs;
}
