/** "1 list", "2 lists", "10,000 items": a count and its noun, the number written as the console writes numbers. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
