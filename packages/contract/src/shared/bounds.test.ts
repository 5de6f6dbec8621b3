import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from '../index';

/**
 * Every string and list a caller sends is capped (issue 13: a 0.9 MB list of numbers once took the
 * server's heap). A list's cap must lead its checks: Zod then refuses a longer list before it parses
 * a single element, instead of collecting an issue per element.
 */

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; maximum?: number; length?: number; pattern?: RegExp } } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const checksOf = (def: Def) => (def.checks ?? []).map((check) => check._zod.def);

/** Zod's own rule (util.sizeCaps): only size checks before the first other check refuse early. */
function hasLeadingCap(def: Def): boolean {
  for (const check of checksOf(def)) {
    if (!/_(length|size)$|_equals$/.test(check.check)) return false;
    if ((check.maximum ?? check.length ?? -1) >= 0) return true;
  }
  return false;
}

/** The paths of `schema` that take a string or a list of any length, or any value at all. */
function unbounded(schema: z.ZodType, path: string): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const capped = checksOf(def).some(
        (check) =>
          check.check === 'max_length' ||
          check.check === 'length_equals' ||
          (check.pattern !== undefined &&
            /^\^.*\$$/.test(check.pattern.source) &&
            !/[*+]|\{\d+,\}/.test(check.pattern.source)),
      );
      return capped ? [] : [path];
    }
    case 'array':
      return [...(hasLeadingCap(def) ? [] : [`${path}[]`]), ...unbounded(def.element!, `${path}[]`)];
    case 'object':
      return Object.entries(def.shape!).flatMap(([key, child]) => unbounded(child, `${path}.${key}`));
    case 'union':
      return def.options!.flatMap((option) => unbounded(option, path));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return unbounded(def.innerType!, path);
    case 'pipe': {
      // Bounded when its input is, or when its output is checked by a schema (not a transform,
      // which takes whatever the input let through), e.g. a string trimmed and then capped.
      const before = unbounded(def.in!, path);
      if (before.length === 0 || defOf(def.out!).type === 'transform') return before;
      return unbounded(def.out!, path).length === 0 ? [] : before;
    }
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'transform':
      return [];
    default:
      return [`${path} (${def.type})`];
  }
}

const REQUEST_SCHEMAS = Object.entries(contract).filter(
  ([name, value]) =>
    /(Request|Params|Query|Input)Schema$|^newUserSchema$/.test(name) && value instanceof z.ZodType,
) as [string, z.ZodType][];

/**
 * Checked elsewhere: a page-rule setting's value is checked by its setting's own schema, and a value
 * outside the catalogue by isBoundedJsonValue (both in pageRuleActionSchema's transform).
 */
const CHECKED_IN_TRANSFORM = new Set(['.actions[].value (unknown)']);

describe('request bounds', () => {
  it('finds the request schemas', () => {
    expect(REQUEST_SCHEMAS.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'reorderFirewallRulesRequestSchema',
        'addPageRuleRequestSchema',
        'pageRuleParamsSchema',
        'dnsRecordInputSchema',
        'addBanListItemRequestSchema',
      ]),
    );
  });

  it.each(REQUEST_SCHEMAS)('%s caps every string and list', (_name, schema) => {
    expect(unbounded(schema, '').filter((path) => !CHECKED_IN_TRANSFORM.has(path))).toEqual([]);
  });

  it('refuses an over-long list with one issue, before looking at its elements', () => {
    const numbers = Array.from({ length: 450_000 }, () => 0);
    const reorder = contract.reorderFirewallRulesRequestSchema.safeParse(numbers);
    expect(reorder.error?.issues).toHaveLength(1);
    const actions = contract.addPageRuleRequestSchema.safeParse({
      targets: [{ target: 'url', constraint: { value: 'example.com/*' } }],
      actions: numbers,
    });
    expect(actions.error?.issues).toHaveLength(1);
  });

  it('holds a value outside the catalogue to a small, shallow JSON value', () => {
    const cacheKeyFields = {
      cookie: { include: Array.from({ length: 50 }, (_, index) => `c${index}`), check_presence: [] },
      header: { include: ['x'], exclude: [], check_presence: [] },
      host: { resolved: true },
      query_string: { exclude: '*' },
      user: { device_type: true, geo: false, lang: true },
    };
    expect(contract.isBoundedJsonValue(cacheKeyFields)).toBe(true);
    let deep: unknown = 1;
    for (let level = 0; level < 5_000; level += 1) deep = { a: deep };
    expect(contract.isBoundedJsonValue(deep)).toBe(false);
    expect(contract.isBoundedJsonValue(Array.from({ length: 501 }, () => 1))).toBe(false);
    expect(contract.isBoundedJsonValue('x'.repeat(1_501))).toBe(false);
  });
});
