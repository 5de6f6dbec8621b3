import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BanList, Snapshot } from '@guardian/contract';
import { createQueryClient } from '../../app/providers';
import { jsonResponse } from '../../test/render-app';
import { useAddAccountMutation } from '../accounts/account-add-mutation';
import { useDeleteAccountMutation } from '../accounts/account-delete-mutation';
import { useAddBanListItemMutation } from '../ban-list-items/ban-list-item-add-mutation';
import { useDeleteBanListItemMutation } from '../ban-list-items/ban-list-item-delete-mutation';
import { listCapacityKeys } from '../ip-search/list-capacity-query';
import { useRestoreSnapshotMutation } from '../snapshots/snapshot-restore-mutation';
import { useAddBanListMutation } from './ban-list-add-mutation';
import { useDeleteBanListMutation } from './ban-list-delete-mutation';
import { useCleanBanListsMutation } from './ban-lists-clean-mutation';

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * Runs a mutation (its server answering 200) with the capacity cards' answer cached, as the Ban Lists
 * screen has it, and says whether the cards are read again.
 */
async function capacityReadAgainAfter<V>(
  useMutation: () => { mutate: (v: V) => void; isSuccess: boolean },
  variables: V,
) {
  const client = createQueryClient();
  client.setQueryData(listCapacityKeys.list(), { accounts: [] });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => jsonResponse(200, {})),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(useMutation, { wrapper });
  act(() => result.current.mutate(variables));
  await waitFor(() => expect(result.current.isSuccess).toBe(true));
  return client.getQueryState(listCapacityKeys.list())?.isInvalidated;
}

const banList = { id: 7, list_id: 'list-1', name: 'office' } as unknown as BanList;
const snapshot = { id: 3, kind: 'clean-all' } as unknown as Snapshot;

// The capacity cards count lists and items: every change of them reads the cards again (issue 35 item 6).
describe('the capacity cards are read again after', () => {
  it('Clean All', async () => {
    expect(await capacityReadAgainAfter(useCleanBanListsMutation, undefined)).toBe(true);
  });

  it('a Restore', async () => {
    expect(await capacityReadAgainAfter(useRestoreSnapshotMutation, snapshot)).toBe(true);
  });

  it('an item added', async () => {
    expect(
      await capacityReadAgainAfter(() => useAddBanListItemMutation('list-1'), {
        ip: '192.0.2.1',
        comment: '',
      }),
    ).toBe(true);
  });

  it('an item deleted', async () => {
    expect(await capacityReadAgainAfter(() => useDeleteBanListItemMutation('list-1'), 5)).toBe(true);
  });

  it('a list added', async () => {
    expect(
      await capacityReadAgainAfter(useAddBanListMutation, {
        account_id: 'acc-1',
        name: 'office',
        kind: 'ip',
      } as never),
    ).toBe(true);
  });

  it('a list deleted', async () => {
    expect(await capacityReadAgainAfter(useDeleteBanListMutation, banList)).toBe(true);
  });

  it('an account added', async () => {
    expect(
      await capacityReadAgainAfter(useAddAccountMutation, { account_name: 'Acme', api_token: 't' } as never),
    ).toBe(true);
  });

  it('an account deleted', async () => {
    expect(await capacityReadAgainAfter(useDeleteAccountMutation, 1)).toBe(true);
  });
});
