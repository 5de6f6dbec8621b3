import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CloudflareAccount } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { ACCOUNTS_COLUMNS } from '../../test/spec-columns';
import { columnHeaders, tableColumn } from '../../test/table';
import { sessionToken } from '../../test/token';
import { cloudflareAccount } from '../../test/cloudflare-account';

let api: FakeApi;

/** An account whose token was last checked at 08:00 UTC on 28 November 2026, unless `token` says otherwise. */
const account = (...[id, name, accountId, last4, token]: Parameters<typeof cloudflareAccount>) =>
  cloudflareAccount(id, name, accountId, last4, { token_checked_at: '2026-11-28T08:00:00.000Z', ...token });

const ACCOUNTS: CloudflareAccount[] = [
  account(2, 'Acme Security', 'acc-acme', 'efgh'),
  account(1, 'Guardian Demo', 'acc-guardian', 'abcd'),
  account(3, 'Zeta Labs', 'acc-zeta', 'wxyz'),
];

/** 45 accounts: three pages of 20, named Account 01 ... Account 45 in id order. */
const MANY_ACCOUNTS = Array.from({ length: 45 }, (_, i) =>
  account(i + 1, `Account ${String(i + 1).padStart(2, '0')}`, `cf-${i + 1}`, '1234'),
);

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'GET /api/cloudflare/accounts': () => jsonResponse(200, ACCOUNTS),
    // The delete confirmation counts the account's lists and zones.
    'GET /api/cloudflare/banlists': () => jsonResponse(200, []),
    'GET /api/cloudflare/zones': () => jsonResponse(200, []),
  });
});

async function openAccounts() {
  const user = userEvent.setup();
  const view = renderApp('/cloudflare/accounts');
  await screen.findByRole('heading', { name: 'Cloudflare Accounts' });
  return { user, ...view };
}

describe('accounts table', () => {
  it('lists the accounts by id with the masked token and every column of the spec', async () => {
    await openAccounts();
    await screen.findByText('Guardian Demo');
    expect(columnHeaders()).toEqual(ACCOUNTS_COLUMNS);
    expect(tableColumn(1)).toEqual(['Guardian Demo', 'Acme Security', 'Zeta Labs']);
    expect(tableColumn(0)).toEqual(['1', '2', '3']);
    expect(tableColumn(2)).toEqual(['acc-guardian', 'acc-acme', 'acc-zeta']);
    expect(tableColumn(3).map((text) => text.slice(0, 8))).toEqual(['****abcd', '****efgh', '****wxyz']);
    expect(screen.getByRole('columnheader', { name: 'No' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('toggles the sort direction when a header is clicked', async () => {
    const { user } = await openAccounts();
    await screen.findByText('Guardian Demo');
    await user.click(screen.getByRole('button', { name: 'Account Name' }));
    expect(tableColumn(1)).toEqual(['Acme Security', 'Guardian Demo', 'Zeta Labs']);
    expect(screen.getByRole('columnheader', { name: 'Account Name' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(screen.getByRole('button', { name: 'Account Name' }));
    expect(tableColumn(1)).toEqual(['Zeta Labs', 'Guardian Demo', 'Acme Security']);
    expect(screen.getByRole('columnheader', { name: 'Account Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(tableColumn(2)).toEqual(['acc-guardian', 'acc-acme', 'acc-zeta']);
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(tableColumn(2)).toEqual(['acc-zeta', 'acc-acme', 'acc-guardian']);
  });

  it('searches by account name and by account id', async () => {
    const { user } = await openAccounts();
    await screen.findByText('Guardian Demo');
    const search = screen.getByRole('searchbox', { name: 'Search accounts' });
    await user.type(search, 'acme');
    expect(tableColumn(1)).toEqual(['Acme Security']);
    await user.clear(search);
    await user.type(search, 'ACC-ZETA');
    expect(tableColumn(1)).toEqual(['Zeta Labs']);
    await user.clear(search);
    await user.type(search, 'nothing-like-it');
    expect(screen.getByText('No accounts match your search.')).toBeInTheDocument();
  });

  it('pages by 20 with the row number counting across pages; a search goes back to page 1', async () => {
    api.answer('GET /api/cloudflare/accounts', () => jsonResponse(200, MANY_ACCOUNTS));
    const { user } = await openAccounts();
    await screen.findByText('Account 01');
    expect(tableColumn(1)).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(tableColumn(1)).toEqual(['Account 41', 'Account 42', 'Account 43', 'Account 44', 'Account 45']);
    expect(tableColumn(0)).toEqual(['41', '42', '43', '44', '45']);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');

    await user.type(screen.getByRole('searchbox', { name: 'Search accounts' }), 'Account');
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(tableColumn(1)[0]).toBe('Account 01');
  });

  it("shows each token's state: valid (and until when), revoked, expired, disabled, not checked yet", async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    api.answer('GET /api/cloudflare/accounts', () =>
      jsonResponse(200, [
        account(1, 'Plain', 'acc-1', 'aaaa'),
        account(2, 'Expiring', 'acc-2', 'bbbb', { token_expires_on: '2031-05-01T12:00:00.000Z' }),
        account(3, 'Soon', 'acc-3', 'cccc', { token_expires_on: soon }),
        account(4, 'Revoked', 'acc-4', 'dddd', { token_status: 'revoked' }),
        account(5, 'Expired', 'acc-5', 'eeee', { token_status: 'expired' }),
        account(6, 'Disabled', 'acc-6', 'ffff', { token_status: 'disabled' }),
        account(7, 'New', 'acc-7', 'gggg', { token_status: null, token_checked_at: null }),
      ]),
    );
    await openAccounts();
    await screen.findByText('Plain');
    const tokens = tableColumn(3);
    expect(tokens[0]).toBe('****aaaaValidChecked at Cloudflare 28 Nov 2026, 08:00');
    expect(tokens[1]).toContain('****bbbbValidExpires 1 May 2031');
    expect(tokens[2]).toContain('Expires');
    expect(tokens.slice(3).map((text) => text.replace(/Checked at .*/, ''))).toEqual([
      '****ddddRevoked',
      '****eeeeExpired',
      '****ffffDisabled',
      '****ggggNot checked yet',
    ]);
  });

  it('edits an account: renames it without sending a token, says Saving... and updates the row', async () => {
    const saving = api.held('PUT /api/cloudflare/accounts/1');
    const { user } = await openAccounts();
    await screen.findByText('Guardian Demo');
    await user.click(screen.getByRole('button', { name: 'Edit Guardian Demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Account' });
    const name = within(dialog).getByLabelText(/Account Name/);
    expect(name).toHaveValue('Guardian Demo');
    expect(within(dialog).getByLabelText(/New API Token/)).toHaveAccessibleDescription(
      /Leave empty to keep the current token \(\*\*\*\*abcd\)/,
    );
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Account name is required.')).toBeInTheDocument();
    await user.type(name, 'Production');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(api.sent('PUT /api/cloudflare/accounts/1')).toEqual([{ account_name: 'Production' }]);
    saving.release(jsonResponse(200, account(1, 'Production', 'acc-guardian', 'abcd')));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tableColumn(1)).toEqual(['Production', 'Acme Security', 'Zeta Labs']);
    expect(screen.getByRole('status')).toHaveTextContent('Account Production saved.');
  });

  it('replaces a token: says Verifying..., shows the refusal, then the new masked token', async () => {
    api.answer('PUT /api/cloudflare/accounts/2', () =>
      errorResponse(400, 'BAD_REQUEST', 'Cloudflare reports this API token as disabled.'),
    );
    const { user } = await openAccounts();
    await screen.findByText('Acme Security');
    await user.click(screen.getByRole('button', { name: 'Edit Acme Security' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Account' });
    const token = within(dialog).getByLabelText(/New API Token/);
    expect(token).toHaveAttribute('type', 'password');
    await user.type(token, 'disabled-token');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Cloudflare reports this API token as disabled.',
    );

    const verifying = api.held('PUT /api/cloudflare/accounts/2');
    await user.clear(token);
    await user.type(token, 'fresh-token-wxyz');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(api.sent('PUT /api/cloudflare/accounts/2').at(-1)).toEqual({
      account_name: 'Acme Security',
      token: 'fresh-token-wxyz',
    });
    verifying.release(jsonResponse(200, account(2, 'Acme Security', 'acc-acme', 'wxyz')));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tableColumn(3)[1]).toMatch(/^\*\*\*\*wxyzValid/);
  });

  it('deletes an account after a confirmation that says what goes from Guardian and what stays at Cloudflare', async () => {
    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(200, [
        {
          id: 1,
          account_name: 'Acme Security',
          account_id: 'acc-acme',
          list_name: 'a',
          list_id: 'l1',
          kind: 'ip',
          items: 1200,
        },
        {
          id: 2,
          account_name: 'Acme Security',
          account_id: 'acc-acme',
          list_name: 'b',
          list_id: 'l2',
          kind: 'ip',
          items: 34,
        },
        {
          id: 3,
          account_name: 'Guardian Demo',
          account_id: 'acc-guardian',
          list_name: 'c',
          list_id: 'l3',
          kind: 'ip',
          items: 9,
        },
      ]),
    );
    api.answer('GET /api/cloudflare/zones', () =>
      jsonResponse(200, [
        {
          id: 'z1',
          domain: 'acme.test',
          accountName: 'Acme Security',
          account_id: 'acc-acme',
          status: 'active',
          name_servers: [],
        },
      ]),
    );
    const { user } = await openAccounts();
    await screen.findByText('Acme Security');
    await user.click(screen.getByRole('button', { name: 'Delete Acme Security' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'Remove Acme Security (acc-acme) from Guardian? Its 2 ban lists with 1,234 items, its 1 zone and the snapshots that kept them are removed from Guardian.',
      ),
    );
    expect(dialog).toHaveTextContent(
      'Nothing is deleted at Cloudflare: the lists, items, zones and the API token stay there.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE /api/cloudflare/accounts/2')).toHaveLength(0);

    const deleting = api.held('DELETE /api/cloudflare/accounts/2');
    await user.click(screen.getByRole('button', { name: 'Delete Acme Security' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    api.answer('GET /api/cloudflare/accounts', () =>
      jsonResponse(
        200,
        ACCOUNTS.filter((a) => a.id !== 2),
      ),
    );
    deleting.release(new Response(null, { status: 204 }));
    await waitFor(() => expect(tableColumn(1)).toEqual(['Guardian Demo', 'Zeta Labs']));
    expect(screen.getByRole('status')).toHaveTextContent('Account Acme Security deleted.');
  });

  it('says why a delete was refused', async () => {
    api.answer('DELETE /api/cloudflare/accounts/1', () =>
      errorResponse(409, 'CONFLICT', 'Guardian is still working on "Guardian Demo" (1 job).'),
    );
    const { user } = await openAccounts();
    await screen.findByText('Guardian Demo');
    await user.click(screen.getByRole('button', { name: 'Delete Guardian Demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Guardian is still working on "Guardian Demo"',
    );
    expect(tableColumn(1)).toContain('Guardian Demo');
  });

  it('replaces the page with the spec’s message when the accounts cannot be fetched', async () => {
    api.answer('GET /api/cloudflare/accounts', () =>
      jsonResponse(503, { code: 'UNAVAILABLE', message: 'x', errors: [] }),
    );
    await openAccounts();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch accounts.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('Add Account', () => {
  async function openAddAccount() {
    const view = await openAccounts();
    await screen.findByText('Guardian Demo');
    await view.user.click(screen.getByRole('button', { name: 'Add Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Account' });
    return { ...view, dialog };
  }

  it('requires an account name and an API token', async () => {
    const { user, dialog } = await openAddAccount();
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(within(dialog).getByText('Account name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('API token is required.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Account Name/)).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(dialog).getByLabelText(/Account Name/), '   ');
    await user.type(within(dialog).getByLabelText(/API Token/), 'token');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(within(dialog).getByText('Account name is required.')).toBeInTheDocument();
    expect(within(dialog).queryByText('API token is required.')).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/cloudflare/accounts')).toHaveLength(0);
  });

  it('says Verifying... while saving and appends the answer to the table without a re-fetch', async () => {
    const verifying = api.held('POST /api/cloudflare/accounts');
    const { user, dialog } = await openAddAccount();
    await user.type(within(dialog).getByLabelText(/Account Name/), ' Spare Account ');
    const tokenInput = within(dialog).getByLabelText(/API Token/);
    expect(tokenInput).toHaveAttribute('type', 'password');
    await user.type(tokenInput, 'cfsandbox-demo-token-3');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(await within(dialog).findByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(api.sent('POST /api/cloudflare/accounts')).toEqual([
      { account_name: 'Spare Account', token: 'cfsandbox-demo-token-3' },
    ]);

    verifying.release(jsonResponse(201, account(9, 'Spare Account', 'acc-spare', 'en-3')));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tableColumn(1)).toEqual(['Guardian Demo', 'Acme Security', 'Zeta Labs', 'Spare Account']);
    expect(tableColumn(3)[3]).toMatch(/^\*\*\*\*en-3/);
    expect(screen.getByRole('status')).toHaveTextContent('Account added.');
    expect(api.callsTo('GET /api/cloudflare/accounts')).toHaveLength(1);
  });

  it("marks the field the server's refusal is about, not only the banner", async () => {
    api.answer('POST /api/cloudflare/accounts', () =>
      errorResponse(409, 'CONFLICT', 'You already have an account named "Guardian Demo".', 'account_name'),
    );
    const { user, dialog } = await openAddAccount();
    await user.type(within(dialog).getByLabelText(/Account Name/), 'Guardian Demo');
    await user.type(within(dialog).getByLabelText(/API Token/), 'token');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    const name = within(dialog).getByLabelText(/Account Name/);
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(
      within(dialog).getAllByText('You already have an account named "Guardian Demo".').length,
    ).toBeGreaterThan(0);
    expect(within(dialog).getByLabelText(/API Token/)).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the server’s message, or Failed to add account', async () => {
    api.answer('POST /api/cloudflare/accounts', () =>
      errorResponse(400, 'BAD_REQUEST', 'Cloudflare refused this API token: Invalid API Token'),
    );
    const { user, dialog } = await openAddAccount();
    await user.type(within(dialog).getByLabelText(/Account Name/), 'Broken');
    await user.type(within(dialog).getByLabelText(/API Token/), 'not-a-token');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Cloudflare refused this API token: Invalid API Token',
    );

    api.answer('POST /api/cloudflare/accounts', () => new Response('Bad gateway', { status: 502 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to add account'));
  });

  it('drops the server’s message once a field is edited, and a field’s message once the field is valid', async () => {
    api.answer('POST /api/cloudflare/accounts', () =>
      errorResponse(400, 'BAD_REQUEST', 'Cloudflare refused this API token: Invalid API Token'),
    );
    const { user, dialog } = await openAddAccount();
    const tokenInput = within(dialog).getByLabelText(/API Token/);
    await user.type(within(dialog).getByLabelText(/Account Name/), 'Broken');
    await user.type(tokenInput, 'not-a-token');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid API Token');

    await user.clear(tokenInput);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(within(dialog).getByText('API token is required.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await user.type(tokenInput, 'another-token');
    expect(within(dialog).queryByText('API token is required.')).not.toBeInTheDocument();
    expect(tokenInput).not.toHaveAttribute('aria-invalid');
    expect(api.callsTo('POST /api/cloudflare/accounts')).toHaveLength(1);
  });
});
