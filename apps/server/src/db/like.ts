/** `text` as a LIKE pattern's literal part: `%`, `_` and `\` (the default escape) match themselves. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
