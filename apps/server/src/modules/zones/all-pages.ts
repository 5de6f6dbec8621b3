interface CloudflarePage<T> {
  result: T[];
  result_info?: object;
}

// The SDK's type leaves total_pages out, though Cloudflare sends it on every paged list.
function totalPagesOf(resultInfo: object | undefined): number | undefined {
  if (!resultInfo || !('total_pages' in resultInfo)) return undefined;
  return typeof resultInfo.total_pages === 'number' ? resultInfo.total_pages : undefined;
}

/**
 * Every item of a paged Cloudflare list, page by page up to `result_info.total_pages` (the SDK's
 * auto-pager would ask for one empty page more). Items are keyed by id: an item added while paging
 * can push another onto the next page twice.
 */
export async function fetchAllPages<T extends { id: string }>(
  perPage: number,
  fetchPage: (page: number) => Promise<CloudflarePage<T>>,
): Promise<T[]> {
  const items = new Map<string, T>();
  for (let page = 1; ; page++) {
    const { result, result_info } = await fetchPage(page);
    for (const item of result) items.set(item.id, item);
    const totalPages = totalPagesOf(result_info);
    const more = totalPages === undefined ? result.length === perPage : page < totalPages;
    if (!more) return [...items.values()];
  }
}
