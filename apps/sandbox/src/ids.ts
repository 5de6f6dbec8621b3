import { randomBytes, randomUUID } from 'node:crypto';

/** A 32-hex identifier, the shape Cloudflare uses for accounts, zones, lists, items, rules. */
export function newId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Many ids at once, for seeding hundreds of thousands of list items quickly. */
export function newIds(count: number): string[] {
  const hex = randomBytes(16 * count).toString('hex');
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = hex.slice(i * 32, i * 32 + 32);
  return ids;
}

export const isId = (value: string): boolean => /^[0-9a-f]{32}$/.test(value);
