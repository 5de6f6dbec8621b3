import { banListItemEndpoints, type BanListExportFormat } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

/**
 * A list's items, or a search's matches, as CSV or TXT text (the server streams it from the mirror).
 * Called like the Activity export, so it carries the session token.
 */
export async function exportBanListItems(
  listId: string,
  query: { format: BanListExportFormat; search: string },
): Promise<string> {
  const answer: unknown = await callEndpoint(banListItemEndpoints.export, {
    params: { list_id: listId },
    query: { format: query.format, search: query.search || undefined },
  });
  // The client reads a body that parses as JSON as JSON: a TXT export of one AS number ("13335\n")
  // comes back a number, an empty one undefined. Both are turned back into the text that was sent.
  if (typeof answer === 'string') return answer;
  return answer === undefined ? '' : `${JSON.stringify(answer)}\n`;
}
