import { fail } from '../envelope';

/** Query values arrive as strings (or arrays when repeated); take the last one, like Cloudflare. */
export function queryValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return queryValue(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** `page` and `per_page` of the page-numbered lists (accounts, zones, DNS records). */
export function readPage(
  query: Record<string, unknown>,
  limits: { defaultPerPage: number; minPerPage: number; maxPerPage: number; code: number },
): PageRequest {
  const pageText = queryValue(query.page);
  const perPageText = queryValue(query.per_page);
  const page = pageText === undefined ? 1 : Number(pageText);
  const perPage = perPageText === undefined ? limits.defaultPerPage : Number(perPageText);
  if (!Number.isInteger(page) || page < 1) {
    throw fail(400, limits.code, 'Invalid page: must be an integer greater than or equal to 1');
  }
  if (!Number.isInteger(perPage) || perPage < limits.minPerPage || perPage > limits.maxPerPage) {
    throw fail(
      400,
      limits.code,
      `Invalid per_page: must be an integer between ${limits.minPerPage} and ${limits.maxPerPage}`,
    );
  }
  return { page, perPage };
}

/** One page of an already filtered and ordered array, with Cloudflare's `result_info`. */
export function pageOf<T>(items: readonly T[], { page, perPage }: PageRequest) {
  const start = (page - 1) * perPage;
  const result = items.slice(start, start + perPage);
  return {
    result,
    resultInfo: {
      page,
      per_page: perPage,
      count: result.length,
      total_count: items.length,
      total_pages: Math.ceil(items.length / perPage),
    },
  };
}

export function readDirection(query: Record<string, unknown>, fallback: 'asc' | 'desc', code: number) {
  const direction = queryValue(query.direction) ?? fallback;
  if (direction !== 'asc' && direction !== 'desc') {
    throw fail(400, code, 'Invalid direction: must be asc or desc');
  }
  return direction;
}

/** Cloudflare's name filters take an optional operator prefix: `contains:foo`, `starts_with:foo`... */
export function matchesTextFilter(value: string, filter: string): boolean {
  const colon = filter.indexOf(':');
  const operator = colon > 0 ? filter.slice(0, colon) : 'equal';
  const known = [
    'equal',
    'not_equal',
    'starts_with',
    'ends_with',
    'contains',
    'starts_with_case_sensitive',
    'ends_with_case_sensitive',
    'contains_case_sensitive',
  ];
  if (!known.includes(operator)) return value.toLowerCase() === filter.toLowerCase();
  const needle = filter.slice(colon + 1);
  const lower = value.toLowerCase();
  const lowerNeedle = needle.toLowerCase();
  switch (operator) {
    case 'not_equal':
      return lower !== lowerNeedle;
    case 'starts_with':
      return lower.startsWith(lowerNeedle);
    case 'ends_with':
      return lower.endsWith(lowerNeedle);
    case 'contains':
      return lower.includes(lowerNeedle);
    case 'starts_with_case_sensitive':
      return value.startsWith(needle);
    case 'ends_with_case_sensitive':
      return value.endsWith(needle);
    case 'contains_case_sensitive':
      return value.includes(needle);
    default:
      return lower === lowerNeedle;
  }
}
