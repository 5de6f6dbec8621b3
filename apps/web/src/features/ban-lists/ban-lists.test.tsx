import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AccountCapacity, BanList, CloudflareAccount, Snapshot } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { banListOf } from '../../test/ban-list';
import { capacityOf } from '../../test/capacity';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { BAN_LISTS_COLUMNS } from '../../test/spec-columns';
import { columnHeaders, tableColumn } from '../../test/table';
import { sessionToken } from '../../test/token';
import { cloudflareAccount } from '../../test/cloudflare-account';

let api: FakeApi;

const BAN_LISTS: BanList[] = [
  banListOf(3, 'partner_hosts', { kind: 'hostname', items: 1 }),
  banListOf(1, 'blocked_ips', { items: 10_000 }),
  banListOf(2, 'acme_bad_actors', { account_name: 'Acme Security', account_id: 'acc-acme', items: 150 }),
];

/** 25 lists: two pages of 20. */
const MANY_BAN_LISTS = Array.from({ length: 25 }, (_, i) =>
  banListOf(i + 1, `list_${String(i + 1).padStart(2, '0')}`),
);

const ACCOUNTS: CloudflareAccount[] = [
  cloudflareAccount(1, 'Guardian Demo', 'acc-guardian', 'abcd'),
  cloudflareAccount(2, 'Acme Security', 'acc-acme', 'efgh'),
];

const CAPACITY: AccountCapacity[] = [
  capacityOf('Guardian Demo', 'acc-demo', 'enterprise', 'inferred', [2, 1_000], [10_003, 500_000]),
  capacityOf('Acme Security', 'acc-acme', 'free', 'assumed', [1, 1], [42, 10_000]),
];

const failure = (status: number, message: string) => () => errorResponse(status, 'UPSTREAM', message);

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'GET /api/cloudflare/banlists': () => jsonResponse(200, BAN_LISTS),
    'GET /api/cloudflare/accounts': () => jsonResponse(200, ACCOUNTS),
    'GET /api/snapshots': () => jsonResponse(200, []),
    'GET /api/snapshots/policy': () => jsonResponse(200, { retention_hours: 168, kept_per_person: 50 }),
    'GET /api/cloudflare/capacity': () => jsonResponse(200, { accounts: CAPACITY }),
  });
});

async function openBanLists() {
  const user = userEvent.setup();
  const view = renderApp('/cloudflare/banlists');
  await screen.findByRole('heading', { name: 'Ban Lists' });
  await screen.findByText('blocked_ips');
  return { user, ...view };
}

// A long operation's job is polled every second: its outcome shows a second or more after the click.
const toast = () => screen.findByRole('alert');

describe('ban lists table', () => {
  it('lists the ban lists by id with every column of the spec and links the item counts', async () => {
    await openBanLists();
    expect(columnHeaders()).toEqual(BAN_LISTS_COLUMNS);
    expect(tableColumn(3)).toEqual(['blocked_ips', 'acme_bad_actors', 'partner_hosts']);
    expect(tableColumn(0)).toEqual(['1', '2', '3']);
    expect(tableColumn(5)).toEqual(['ip', 'ip', 'hostname']);
    const row = screen.getByText('acme_bad_actors').closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', 'Acme Security', 'acc-acme', 'acme_bad_actors', 'list-acme_bad_actors', 'ip', '150', '']);
    expect(screen.getByRole('link', { name: '10,000 items in blocked_ips' })).toHaveAttribute(
      'href',
      '/cloudflare/banlists/list-blocked_ips/items',
    );
    expect(screen.getByRole('button', { name: 'Clean All' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
  });

  it('toggles the sort direction when a header is clicked', async () => {
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Items' }));
    expect(tableColumn(3)).toEqual(['partner_hosts', 'acme_bad_actors', 'blocked_ips']);
    await user.click(screen.getByRole('button', { name: 'Items' }));
    expect(tableColumn(3)).toEqual(['blocked_ips', 'acme_bad_actors', 'partner_hosts']);
    expect(screen.getByRole('columnheader', { name: 'Items' })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'List Name' }));
    expect(tableColumn(3)).toEqual(['acme_bad_actors', 'blocked_ips', 'partner_hosts']);
  });

  it('pages by 20', async () => {
    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, MANY_BAN_LISTS));
    const user = userEvent.setup();
    renderApp('/cloudflare/banlists');
    await screen.findByText('list_01');
    expect(tableColumn(3)).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(tableColumn(3)).toEqual(['list_21', 'list_22', 'list_23', 'list_24', 'list_25']);
    expect(tableColumn(0)).toEqual(['21', '22', '23', '24', '25']);
  });

  it('replaces the page with the spec’s message when the ban lists cannot be fetched', async () => {
    api.answer('GET /api/cloudflare/banlists', failure(403, 'x'));
    renderApp('/cloudflare/banlists');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch ban lists.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers Retry on that message, which reads the lists again', async () => {
    api.answer('GET /api/cloudflare/banlists', failure(403, 'x'));
    const user = userEvent.setup();
    renderApp('/cloudflare/banlists');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch ban lists.');
    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, BAN_LISTS));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('blocked_ips')).toBeInTheDocument();
  });
});

describe('Add ban list', () => {
  async function openAdd() {
    const view = await openBanLists();
    await view.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Ban List' });
    return { ...view, dialog };
  }

  it('offers the accounts and the four types, with the list name’s rule as a hint', async () => {
    const { dialog } = await openAdd();
    await within(dialog).findByRole('option', { name: 'Acme Security' });
    expect(
      within(within(dialog).getByLabelText(/Type/))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['ip', 'redirect', 'hostname', 'asn']);
    expect(within(dialog).getByLabelText(/List Name/)).toHaveAccessibleDescription(
      'Use only lowercase letters, numbers and underscores, at most 50 characters.',
    );
  });

  it('says All fields are required. when the account or the list name is missing', async () => {
    const { user, dialog } = await openAdd();
    await within(dialog).findByRole('option', { name: 'Acme Security' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('All fields are required.');
    expect(within(dialog).getByLabelText(/Account/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(dialog).getByLabelText(/List Name/), 'new_list');
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('All fields are required.');
    expect(within(dialog).getByLabelText(/List Name/)).not.toHaveAttribute('aria-invalid');

    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'Acme Security');
    await user.clear(within(dialog).getByLabelText(/List Name/));
    await user.type(within(dialog).getByLabelText(/List Name/), 'Bad Name');
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^List name is not valid\./)).toBeInTheDocument();
    expect(api.callsTo('POST /api/cloudflare/banlists')).toHaveLength(0);
  });

  it('adds the list, says Adding... meanwhile, and shows the answer in the table', async () => {
    const adding = api.held('POST /api/cloudflare/banlists');
    const { user, dialog } = await openAdd();
    await within(dialog).findByRole('option', { name: 'Acme Security' });
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'Acme Security');
    await user.type(within(dialog).getByLabelText(/List Name/), 'new_hosts');
    await user.selectOptions(within(dialog).getByLabelText(/Type/), 'hostname');
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    expect(await within(dialog).findByRole('button', { name: 'Adding...' })).toBeDisabled();
    expect(api.sent('POST /api/cloudflare/banlists')).toEqual([
      { account_name: 'Acme Security', list_name: 'new_hosts', kind: 'hostname' },
    ]);

    adding.release(
      jsonResponse(
        201,
        banListOf(9, 'new_hosts', {
          account_name: 'Acme Security',
          account_id: 'acc-acme',
          kind: 'hostname',
          items: 0,
        }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tableColumn(3)).toEqual(['blocked_ips', 'acme_bad_actors', 'partner_hosts', 'new_hosts']);
    expect(api.callsTo('GET /api/cloudflare/banlists')).toHaveLength(1);
  });

  it('shows the server’s message, or Failed to add ban list.', async () => {
    api.answer('POST /api/cloudflare/banlists', failure(400, 'A list named blocked_ips already exists.'));
    const { user, dialog } = await openAdd();
    await within(dialog).findByRole('option', { name: 'Acme Security' });
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'Guardian Demo');
    await user.type(within(dialog).getByLabelText(/List Name/), 'blocked_ips');
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A list named blocked_ips already exists.',
    );

    api.answer('POST /api/cloudflare/banlists', () => new Response(null, { status: 502 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Ban List' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to add ban list.'),
    );
  });

  it('says Could not load accounts. when the accounts cannot be loaded', async () => {
    api.answer('GET /api/cloudflare/accounts', failure(403, 'no'));
    const { dialog } = await openAdd();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Could not load accounts.');
    expect(within(dialog).getByRole('button', { name: 'Add Ban List' })).toBeDisabled();
  });
});

describe('Delete ban list', () => {
  it('asks with the spec’s words, says Deleting... meanwhile, deletes by id and re-fetches', async () => {
    const deleting = api.held('DELETE /api/cloudflare/banlists/2');
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Delete acme_bad_actors' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ban List' });
    // The spec's words, then what Restore brings back and for how long (issue 35 item 11).
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this ban list? This action cannot be undone. ' +
        'Guardian keeps a copy for 7 days (your 50 most recent copies): Restore brings the list back with ' +
        'its items, their comments, expiry and who added them (items whose expiry passes meanwhile stay removed).',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();

    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(
        200,
        BAN_LISTS.filter((list) => list.id !== 2),
      ),
    );
    deleting.release(new Response(null, { status: 204 }));
    await waitFor(() => expect(screen.queryByText('acme_bad_actors')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ban list acme_bad_actors deleted.');
  });

  it('sends nothing when the person cancels', async () => {
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Delete blocked_ips' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });

  it('says Failed to delete ban list. Please try again. when the delete fails', async () => {
    api.answer('DELETE /api/cloudflare/banlists/1', failure(502, 'Cloudflare is down'));
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Delete blocked_ips' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await toast()).toHaveTextContent(
      'Failed to delete ban list. Please try again. Cloudflare is down',
    );
    expect(screen.getByText('blocked_ips')).toBeInTheDocument();
  });
});

describe('Clean All', () => {
  it('asks with the spec’s words, says Deleting... meanwhile, then re-fetches the lists', async () => {
    const cleaning = api.held('POST /api/cloudflare/banlists/clean');
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Clean All' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clean All Ban Lists' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to clean all items from all ban lists? This action is irreversible. ' +
        'Guardian keeps a copy for 7 days (your 50 most recent copies): Restore brings the items back with ' +
        'their comments, expiry and who added them (items whose expiry passes meanwhile stay removed).',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Clean All' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();

    const emptied = BAN_LISTS.map((list) => ({ ...list, items: 0 }));
    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, emptied));
    cleaning.release(jsonResponse(200, emptied));
    // The dialog (which hides the table from the accessibility tree) closes once the lists are re-fetched;
    // then the toast says so.
    expect(await screen.findByRole('status')).toHaveTextContent('All ban lists cleaned.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tableColumn(6)).toEqual(['0', '0', '0']);
    expect(api.callsTo('GET /api/cloudflare/banlists')).toHaveLength(2);
  });

  it('sends nothing when the person cancels', async () => {
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Clean All' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST /api/cloudflare/banlists/clean')).toHaveLength(0);
  });

  it('says Failed to clean all ban lists. Please try again. when the clean fails', async () => {
    api.answer('POST /api/cloudflare/banlists/clean', failure(502, 'Could not empty "blocked_ips"'));
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Clean All' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clean All' }));
    expect(await toast()).toHaveTextContent(/^Failed to clean all ban lists\. Please try again\./);
    // Lists emptied before the failure stay empty: the table is re-fetched either way.
    await waitFor(() => expect(api.callsTo('GET /api/cloudflare/banlists')).toHaveLength(2));
  });
});

describe('Restoring what Clean All or a delete removed', () => {
  const cleaned: Snapshot = {
    id: '6f1c7c3e-8d43-4b7e-9a0e-2f1d7f0c0a11',
    kind: 'clean-all',
    summary: 'Clean All: 3 lists, 12 items',
    items: 12,
    list_id: null,
    zone_id: null,
    record_id: null,
    created_at: '2026-11-23T10:00:00.000Z',
    expires_at: '2026-11-30T10:00:00.000Z',
    restored_at: null,
  };
  const restored = { ...cleaned, restored_at: '2026-11-23T10:05:00.000Z' };

  it('offers Restore in the Clean All toast, and restores the snapshot Clean All just kept', async () => {
    api.answer('POST /api/cloudflare/banlists/clean', () => jsonResponse(200, BAN_LISTS));
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Clean All' }));
    api.answer('GET /api/snapshots', () => jsonResponse(200, [cleaned]));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clean All' }));

    const success = await screen.findByRole('status');
    expect(success).toHaveTextContent('All ban lists cleaned.');
    api.answer(`POST /api/snapshots/${cleaned.id}/restore`, () => jsonResponse(200, restored));
    await user.click(within(success).getByRole('button', { name: 'Restore' }));

    await waitFor(() => expect(api.callsTo(`POST /api/snapshots/${cleaned.id}/restore`)).toHaveLength(1));
    expect(await screen.findByText('Restored: Clean All: 3 lists, 12 items.')).toBeInTheDocument();
  });

  it('lists what can be restored under the table, each with its own Restore', async () => {
    api.answer('GET /api/snapshots', (call) => {
      expect(call.params.get('kind')).toBe('clean-all,ban-list');
      return jsonResponse(200, [cleaned]);
    });
    const { user } = await openBanLists();
    const panel = await screen.findByRole('region', { name: 'Recently removed' });
    expect(panel).toHaveTextContent('Clean All: 3 lists, 12 items');

    const restoring = api.held(`POST /api/snapshots/${cleaned.id}/restore`);
    api.answer(`POST /api/snapshots/${cleaned.id}/restore`, () => jsonResponse(200, restored));
    await user.click(within(panel).getByRole('button', { name: 'Restore Clean All: 3 lists, 12 items' }));
    expect(await within(panel).findByRole('button', { name: /Restore Clean All/ })).toHaveTextContent(
      'Restoring...',
    );
    api.answer('GET /api/snapshots', () => jsonResponse(200, [restored]));
    restoring.release();
    expect(await within(panel).findByText('Restored')).toBeInTheDocument();
  });

  it('says why when the restore fails, and keeps Restore', async () => {
    api.answer('GET /api/snapshots', () => jsonResponse(200, [cleaned]));
    api.answer(`POST /api/snapshots/${cleaned.id}/restore`, failure(502, 'Could not restore "blocked_ips"'));
    const { user } = await openBanLists();
    const panel = await screen.findByRole('region', { name: 'Recently removed' });
    await user.click(within(panel).getByRole('button', { name: /Restore Clean All/ }));
    expect(await toast()).toHaveTextContent('Failed to restore. Could not restore "blocked_ips"');
    expect(within(panel).getByRole('button', { name: /Restore Clean All/ })).toBeEnabled();
  });
});

describe('Update', () => {
  it('says Syncing... meanwhile, then re-fetches the lists', async () => {
    const syncing = api.held('POST /api/cloudflare/banlists/update');
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toBeDisabled();

    const updated = [...BAN_LISTS, banListOf(4, 'spare_list', { account_name: 'Spare Account' })];
    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, updated));
    syncing.release(jsonResponse(200, updated));
    expect(await screen.findByText('spare_list')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ban lists updated.');
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  it('a long update (202, its job) stays on Syncing... until the job ends, then re-fetches', async () => {
    const updated = [...BAN_LISTS, banListOf(4, 'spare_list', { account_name: 'Spare Account' })];
    const running = jobOf({ kind: 'ban-lists-update', target: 'All lists', account_name: null });
    api.answer('POST /api/cloudflare/banlists/update', () => jsonResponse(202, running));
    const polled = api.held(`GET /api/jobs/${running.id}`);
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toBeDisabled();
    await waitFor(() => expect(api.callsTo(`GET /api/jobs/${running.id}`)).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();

    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, updated));
    polled.release(jsonResponse(200, { ...running, state: 'succeeded', result: updated }));
    expect(await screen.findByText('spare_list')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ban lists updated.');
  });

  it('a running update shows how far it is (also after a reload), and can be cancelled', async () => {
    const running = jobOf({
      kind: 'ban-lists-update',
      target: 'All lists',
      account_name: null,
      done: 1,
      total: 3,
    });
    api.answer('GET /api/jobs', () => jsonResponse(200, { jobs: [running], unseen: 0 }));
    api.answer(`GET /api/jobs/${running.id}`, () => jsonResponse(200, running));
    api.answer(`POST /api/jobs/${running.id}/cancel`, () =>
      jsonResponse(200, { ...running, cancel_requested: true }),
    );
    const { user } = await openBanLists();
    const strip = await screen.findByRole('region', { name: 'Update from Cloudflare' });
    expect(strip).toHaveTextContent('Updating ban lists... 1 of 3 accounts (33%)');
    expect(within(strip).getByRole('progressbar', { name: 'Update progress' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
    // Not Clean All's: only the kind that runs has a strip.
    expect(screen.queryByRole('region', { name: 'Clean All' })).toBeNull();
    await user.click(within(strip).getByRole('button', { name: 'Cancel update' }));
    await waitFor(() => expect(api.callsTo(`POST /api/jobs/${running.id}/cancel`)).toHaveLength(1));
  });

  it("a long update whose job fails says the spec's text, then the job's reason", async () => {
    const running = jobOf({ kind: 'ban-lists-update', target: 'All lists', account_name: null });
    api.answer('POST /api/cloudflare/banlists/update', () => jsonResponse(202, running));
    api.answer(`GET /api/jobs/${running.id}`, () =>
      jsonResponse(200, { ...running, state: 'failed', error: 'Cloudflare is unavailable.' }),
    );
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await toast()).toHaveTextContent(
      'Failed to update ban lists. Please try again. Cloudflare is unavailable.',
    );
  });

  it('says Failed to update ban lists. Please try again. when the update fails', async () => {
    api.answer('POST /api/cloudflare/banlists/update', failure(502, 'Could not read the lists of "Acme"'));
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await toast()).toHaveTextContent(/^Failed to update ban lists\. Please try again\./);
  });
});

describe('capacity', () => {
  it("shows each account's lists and items used of its plan's limits, and saves the plan chosen", async () => {
    const { user } = await openBanLists();
    const acme = await screen.findByRole('listitem', { name: 'Acme Security' });
    expect(within(acme).getByText('1 of 1')).toBeInTheDocument();
    expect(within(acme).getByText('42 of 10,000')).toBeInTheDocument();
    const demo = screen.getByRole('listitem', { name: 'Guardian Demo' });
    expect(within(demo).getByText('10,003 of 500,000')).toBeInTheDocument();
    const plan = within(acme).getByRole('combobox', { name: 'Plan of Acme Security' });
    expect(plan).toHaveDisplayValue('Free (assumed: choose the plan)');
    api.answer('PUT /api/cloudflare/capacity/acc-acme/plan', () =>
      jsonResponse(200, {
        ...CAPACITY[1],
        plan: 'pro',
        plan_source: 'setting',
        lists: { used: 1, limit: 10 },
      }),
    );
    await user.selectOptions(plan, 'Pro');
    await waitFor(() =>
      expect(api.sent('PUT /api/cloudflare/capacity/acc-acme/plan')).toEqual([{ plan: 'pro' }]),
    );
  });

  it('says where each plan came from, and a plan set by the person reads so once saved', async () => {
    const fromZones: AccountCapacity = {
      ...CAPACITY[1]!,
      plan: 'pro',
      plan_source: 'zones',
      lists: { used: 1, limit: 10 },
    };
    api.answer('GET /api/cloudflare/capacity', () =>
      jsonResponse(200, { accounts: [CAPACITY[0], fromZones] }),
    );
    const { user } = await openBanLists();
    const acme = await screen.findByRole('listitem', { name: 'Acme Security' });
    expect(within(acme).getByText('Pro plan, from Cloudflare: zone plans')).toBeInTheDocument();
    expect(within(acme).getByText('1 of 10')).toBeInTheDocument();
    const demo = screen.getByRole('listitem', { name: 'Guardian Demo' });
    expect(within(demo).getByText('Enterprise plan, inferred from its lists')).toBeInTheDocument();
    const plan = within(acme).getByRole('combobox', { name: 'Plan of Acme Security' });
    expect(plan).toHaveDisplayValue('Pro (from Cloudflare: zone plans)');

    // The person corrects it: the cards are read again and say so.
    const business = { ...fromZones, plan: 'business' as const, plan_source: 'setting' as const };
    api.answer('PUT /api/cloudflare/capacity/acc-acme/plan', () => jsonResponse(200, business));
    api.answer('GET /api/cloudflare/capacity', () =>
      jsonResponse(200, { accounts: [CAPACITY[0], business] }),
    );
    await user.selectOptions(plan, 'Business');
    expect(await within(acme).findByText('Business plan, set by you')).toBeInTheDocument();
    expect(plan).toHaveDisplayValue('Business');
  });

  it("warns in Add when the chosen account's lists are at its plan's limit", async () => {
    const { user } = await openBanLists();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Ban List' });
    expect(within(dialog).queryByRole('note')).not.toBeInTheDocument();
    await user.selectOptions(await within(dialog).findByLabelText(/Account/), 'Acme Security');
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      '"Acme Security" has 1 of 1 lists (Free plan): Cloudflare will refuse another.',
    );
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'Guardian Demo');
    expect(within(dialog).queryByRole('note')).not.toBeInTheDocument();
  });
});

describe("a new account's lists", () => {
  it('fill in their item counts as their sync jobs end', async () => {
    const syncing = jobOf({
      account_name: 'Spare Account',
      target: 'spare_list',
      list_id: 'list-spare_list',
    });
    const spare = banListOf(9, 'spare_list', {
      account_name: 'Spare Account',
      account_id: 'acc-spare',
      items: 0,
      purpose: null,
      purpose_source: null,
    });
    api.answer('GET /api/jobs', () => jsonResponse(200, { jobs: [syncing], unseen: 0 }));
    api.answer('GET /api/cloudflare/banlists', () => jsonResponse(200, [...BAN_LISTS, spare]));
    await openBanLists();
    expect(await screen.findByRole('link', { name: '0 items in spare_list' })).toBeInTheDocument();

    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(200, [...BAN_LISTS, { ...spare, items: 1 }]),
    );
    api.answer('GET /api/jobs', () =>
      jsonResponse(200, {
        jobs: [{ ...syncing, state: 'succeeded', finished_at: syncing.started_at }],
        unseen: 1,
      }),
    );
    expect(await screen.findByRole('link', { name: /^1 items? in spare_list$/ })).toBeInTheDocument();
  });
});
