/**
 * The series' colours, in order: told apart by people with the common colour-vision deficiencies
 * (Okabe and Ito's palette first), and never the only cue: every chart has its
 * legend and its numbers as a table.
 */
export const SERIES_COLOURS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#b08800',
  '#1d4ed8',
  '#6b7280',
  '#7c3aed',
  '#111827',
  '#e11d48',
  '#0e7490',
  '#65a30d',
];

export const seriesColour = (index: number) => SERIES_COLOURS[index % SERIES_COLOURS.length]!;
