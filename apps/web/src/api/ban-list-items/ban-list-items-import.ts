import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  banListItemEndpoints,
  type BanListImportPreviewRequest,
  type BanListImportResult,
  type Job,
} from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { jobKeys } from '../jobs/keys';
import { banListItemKeys } from './keys';

/** Reads an import's text at the server: what it would add, what the list has, every invalid line. Nothing is sent to Cloudflare. */
export function previewImport(listId: string, request: BanListImportPreviewRequest) {
  return callEndpoint(banListItemEndpoints.importPreview, { params: { list_id: listId }, body: request });
}

/** Applies a preview: its result when it ended within the server's wait, else its job (202), still going. */
export function applyImport(
  listId: string,
  importId: string,
  expires: string,
): Promise<BanListImportResult | Job> {
  return callEndpoint(banListItemEndpoints.importApply, {
    params: { list_id: listId, import_id: importId },
    body: { expires },
  });
}

export function usePreviewImportMutation(listId: string) {
  return useMutation({
    mutationFn: (request: BanListImportPreviewRequest) => previewImport(listId, request),
  });
}

export function useApplyImportMutation(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ importId, expires }: { importId: string; expires: string }) =>
      applyImport(listId, importId, expires),
    // A job was started either way: the bell's list changes.
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
  });
}

/** An import ended well: the list's pages and the lists' counts are read again. */
export function refetchImported(queryClient: ReturnType<typeof useQueryClient>, listId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: banListItemKeys.list(listId) }),
    queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
  ]);
}
