import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKey, PasswordSetupResult, Plan, User, UsersPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { stubResizeObserver } from '../../test/resize-observer';
import { sessionToken } from '../../test/token';

const ADMIN = 'admin@example.com';
const LAST_ADMIN =
  'This is the last active administrator: make another administrator first, so someone can still manage Guardian.';

let api: FakeApi;
let nextId = 100;

const user = (id: number, overrides: Partial<User> = {}): User => ({
  id,
  email: `person${id}@example.com`,
  level: 1,
  disabled: false,
  two_factor: false,
  last_sign_in_at: null,
  created_at: '2026-11-02T09:30:00.000Z',
  plan_id: 1,
  ...overrides,
});

const admin = user(1, {
  email: ADMIN,
  level: 0,
  two_factor: true,
  last_sign_in_at: '2026-11-25T14:05:00.000Z',
});
const people: User[] = [
  admin,
  user(2, { email: 'ayse@example.com', disabled: true }),
  ...Array.from({ length: 43 }, (_, i) => user(3 + i)),
];

/** The server's paging and e-mail search over `people`. */
function usersPage(params: URLSearchParams): UsersPage {
  const search = (params.get('search') ?? '').toLowerCase();
  const page = Number(params.get('page') ?? 1);
  const perPage = Number(params.get('per_page') ?? 20);
  const found = people.filter((person) => person.email.includes(search));
  return { users: found.slice((page - 1) * perPage, page * perPage), totalItems: found.length };
}

const plan = (id: number, name: string, accounts: number): Plan => ({
  id,
  name,
  accounts,
  zones: 100,
  lists: 10,
  list_items: 10_000,
  api_keys: 5,
  servers: 5,
  templates: 0,
  report_range: '30d',
  is_default: id === 1,
  users: id === 1 ? people.length : 0,
});
const PLANS: Plan[] = [plan(1, 'Standard', 100), plan(2, 'Starter', 1)];

const conflict = (message: string) =>
  jsonResponse(409, { code: 'CONFLICT', message, errors: [{ code: 'CONFLICT', message }] });

beforeEach(() => {
  // The row actions have tooltips.
  stubResizeObserver();
  setToken(sessionToken({ level: 0, email: ADMIN }));
  api = fakeApi({
    'GET /api/admin/users': (call) => jsonResponse(200, usersPage(call.params)),
    'GET /api/admin/two-factor/required': () => jsonResponse(200, { required: false }),
    'GET /api/admin/plans': () => jsonResponse(200, PLANS),
  });
});

async function openUsers() {
  const person = userEvent.setup();
  renderApp('/admin/users');
  await screen.findByRole('heading', { level: 1, name: 'Users' });
  const table = await screen.findByRole('table', { name: 'Users' });
  await within(table).findByText(ADMIN);
  return { person, table };
}

const rowOf = (table: HTMLElement, email: string) => {
  const row = within(table).getByText(email).closest('tr');
  if (!row) throw new Error(`no row for ${email}`);
  return row;
};

describe('Users (administrators)', () => {
  it('lists users a page at a time with level, state, two-factor, last sign-in and created', async () => {
    const { person, table } = await openUsers();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['E-mail', 'Level', 'Plan', 'State', 'Two-Factor', 'Last Sign-In', 'Created', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(20);
    expect(screen.getByText('45 users')).toBeInTheDocument();

    const own = rowOf(table, ADMIN);
    expect(own).toHaveTextContent('(you)');
    expect(own).toHaveTextContent('Administrator');
    expect(own).toHaveTextContent('Active');
    expect(own).toHaveTextContent('On');
    expect(own).toHaveTextContent('25 Nov 2026');
    // Two-factor is on: the administrator can reset it; for the others it is off, and no reset.
    expect(
      within(own).getByRole('button', { name: `Reset two-factor sign-in for ${ADMIN}` }),
    ).toBeInTheDocument();

    const disabled = rowOf(table, 'ayse@example.com');
    expect(disabled).toHaveTextContent('User (level 1)');
    expect(disabled).toHaveTextContent('Disabled');
    expect(disabled).toHaveTextContent('Off');
    expect(disabled).toHaveTextContent('Never');
    expect(disabled).toHaveTextContent('2 Nov 2026');
    expect(within(disabled).getByRole('button', { name: 'Enable ayse@example.com' })).toBeInTheDocument();
    expect(within(disabled).queryByRole('button', { name: /Reset two-factor/ })).not.toBeInTheDocument();

    // The switch that requires two-factor of everyone is on the page.
    expect(
      screen.getByRole('switch', { name: 'Require two-factor sign-in for everyone' }),
    ).toBeInTheDocument();

    await person.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await within(table).findByText('person45@example.com')).toBeInTheDocument();
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(5);
    expect(api.callsTo('GET /api/admin/users').at(-1)!.params.get('page')).toBe('3');
  });

  it('searches by e-mail on the server, from page 1', async () => {
    const { person, table } = await openUsers();
    await person.click(screen.getByRole('button', { name: 'Page 2' }));
    await within(table).findByText('person21@example.com');

    await person.type(screen.getByRole('searchbox', { name: 'Search users' }), 'person4');
    // person4 and person40 to person45.
    expect(await screen.findByText('7 matches')).toBeInTheDocument();
    const last = api.callsTo('GET /api/admin/users').at(-1)!;
    expect(last.params.get('search')).toBe('person4');
    expect(last.params.get('page')).toBe('1');
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(7);

    await person.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await person.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await within(table).findByText('No users match your search.')).toBeInTheDocument();
  });

  it('adds a user with a one-time set-password link, shown once', async () => {
    const { person } = await openUsers();
    api.answer('POST /api/admin/users', (call) => {
      const body = call.body as { email: string; level: number };
      const result: PasswordSetupResult = {
        user: user(nextId++, { email: body.email, level: body.level }),
        password_link: { token: 'tok-3f9a', expires_at: '2026-11-28T12:00:00.000Z' },
      };
      return jsonResponse(201, result);
    });

    await person.click(screen.getByRole('button', { name: 'Add User' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add User' });
    // Checked with the contract's own rules before anything is sent.
    await person.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByText('E-mail must look like name@example.com.')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 8 characters.')).toBeInTheDocument();

    await person.type(within(dialog).getByLabelText(/E-mail/), 'new.person@example.com');
    await person.click(within(dialog).getByRole('radio', { name: /one-time set-password link/ }));
    expect(within(dialog).queryByLabelText(/First password/)).not.toBeInTheDocument();
    await person.click(within(dialog).getByRole('button', { name: 'Add User' }));

    dialog = await screen.findByRole('dialog', { name: 'User Added' });
    expect(api.sent('POST /api/admin/users')).toEqual([
      { email: 'new.person@example.com', level: 1, password_setup: { method: 'link' } },
    ]);
    const link = `${window.location.origin}/set-password#tok-3f9a`;
    expect(within(dialog).getByLabelText('Set-password link')).toHaveTextContent(link);
    expect(dialog).toHaveTextContent('It works once, until 28 Nov 2026');
    // The form's button is gone: the focus is on what comes next.
    expect(within(dialog).getByRole('button', { name: 'Copy set-password link' })).toHaveFocus();
    expect(await screen.findByText('User new.person@example.com added.')).toBeInTheDocument();

    await person.click(within(dialog).getByRole('button', { name: 'Copy set-password link' }));
    expect(await within(dialog).findByText('Copied.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);

    await person.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Shown once: nothing of it is left on the page, and the next Add User starts afresh.
    expect(document.body).not.toHaveTextContent('tok-3f9a');
    await person.click(screen.getByRole('button', { name: 'Add User' }));
    dialog = await screen.findByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByLabelText(/E-mail/)).toHaveValue('');
  });

  it('adds a user with a first password, generated or typed, and shows it once', async () => {
    const { person } = await openUsers();
    api.answer('POST /api/admin/users', (call) => {
      const body = call.body as { email: string; level: number };
      return jsonResponse(201, {
        user: user(nextId++, { email: body.email, level: body.level }),
        password_link: null,
      });
    });
    await person.click(screen.getByRole('button', { name: 'Add User' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await person.type(within(dialog).getByLabelText(/E-mail/), 'second.admin@example.com');
    await person.clear(within(dialog).getByLabelText(/Level/));
    await person.type(within(dialog).getByLabelText(/Level/), '0');
    await person.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const generated = (within(dialog).getByLabelText(/First password/) as HTMLInputElement).value;
    expect(generated).toMatch(/^[A-Za-z2-9]{16}$/);
    await person.click(within(dialog).getByRole('button', { name: 'Add User' }));

    dialog = await screen.findByRole('dialog', { name: 'User Added' });
    expect(api.sent('POST /api/admin/users')).toEqual([
      {
        email: 'second.admin@example.com',
        level: 0,
        password_setup: { method: 'password', password: generated },
      },
    ]);
    expect(within(dialog).getByLabelText('Password')).toHaveTextContent(generated);
  });

  it("says the server's refusal in the dialog: a taken e-mail", async () => {
    const { person } = await openUsers();
    api.answer('POST /api/admin/users', () =>
      conflict('A user with the e-mail ayse@example.com already exists.'),
    );
    await person.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await person.type(within(dialog).getByLabelText(/E-mail/), 'ayse@example.com');
    await person.type(within(dialog).getByLabelText(/First password/), 'a-good-password');
    await person.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to add the user. A user with the e-mail ayse@example.com already exists.',
    );
  });

  it('refuses to disable or demote the last administrator, in words and without a toast', async () => {
    const { person, table } = await openUsers();
    api.answer('POST /api/admin/users/1/disable', () => conflict(LAST_ADMIN));
    api.answer('PUT /api/admin/users/1/level', () => conflict(LAST_ADMIN));

    await person.click(within(rowOf(table, ADMIN)).getByRole('button', { name: `Disable ${ADMIN}` }));
    let dialog = await screen.findByRole('dialog', { name: 'Disable User' });
    expect(dialog).toHaveTextContent('(that is you)');
    await person.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Failed to disable the user. ${LAST_ADMIN}`,
    );
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await person.click(within(rowOf(table, ADMIN)).getByRole('button', { name: `Change level of ${ADMIN}` }));
    dialog = await screen.findByRole('dialog', { name: 'Change Level' });
    await person.clear(within(dialog).getByLabelText(/Level/));
    await person.type(within(dialog).getByLabelText(/Level/), '1');
    await person.click(within(dialog).getByRole('button', { name: 'Save Level' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Failed to change the level. ${LAST_ADMIN}`,
    );
    expect(api.sent('PUT /api/admin/users/1/level')).toEqual([{ level: 1 }]);
    // No toast at all: the page shows toasts only for what succeeded.
    expect(document.querySelector('[aria-relevant="additions"]')?.childElementCount).toBe(0);
  });

  it('changes a level, disables and enables, resets a password with a link and deletes after asking', async () => {
    const { person, table } = await openUsers();
    const target = 'person3@example.com';
    api.answer('PUT /api/admin/users/3/level', () => jsonResponse(200, user(3, { level: 0 })));
    api.answer('POST /api/admin/users/3/disable', () => jsonResponse(200, user(3, { disabled: true })));
    api.answer('POST /api/admin/users/2/enable', () =>
      jsonResponse(200, user(2, { email: 'ayse@example.com' })),
    );
    api.answer('POST /api/admin/users/3/password', () =>
      jsonResponse(200, {
        user: user(3),
        password_link: { token: 'reset-tok', expires_at: '2026-11-28T12:00:00.000Z' },
      }),
    );
    api.answer('DELETE /api/admin/users/3', () => new Response(null, { status: 204 }));

    await person.click(
      within(rowOf(table, target)).getByRole('button', { name: `Change level of ${target}` }),
    );
    let dialog = await screen.findByRole('dialog', { name: 'Change Level' });
    await person.clear(within(dialog).getByLabelText(/Level/));
    await person.type(within(dialog).getByLabelText(/Level/), '0');
    await person.click(within(dialog).getByRole('button', { name: 'Save Level' }));
    expect(await screen.findByText(`Level of ${target} changed to 0.`)).toBeInTheDocument();

    await person.click(within(rowOf(table, target)).getByRole('button', { name: `Disable ${target}` }));
    dialog = await screen.findByRole('dialog', { name: 'Disable User' });
    await person.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText(`${target} disabled.`)).toBeInTheDocument();

    await person.click(
      within(rowOf(table, 'ayse@example.com')).getByRole('button', { name: 'Enable ayse@example.com' }),
    );
    expect(await screen.findByText('ayse@example.com enabled.')).toBeInTheDocument();

    await person.click(
      within(rowOf(table, target)).getByRole('button', { name: `Reset password of ${target}` }),
    );
    dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    // A new password is checked with the contract's rules before anything is sent.
    await person.click(within(dialog).getByRole('radio', { name: /Set a new password/ }));
    await person.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    await person.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(within(dialog).queryByText('Password must be at least 8 characters.')).not.toBeInTheDocument(),
    );
    expect(api.sent('POST /api/admin/users/3/password')).toEqual([]);
    // A link (the default): the person chooses their own password.
    await person.click(within(dialog).getByRole('radio', { name: /one-time set-password link/ }));
    await person.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    dialog = await screen.findByRole('dialog', { name: 'Password Reset' });
    expect(within(dialog).getByLabelText('Set-password link')).toHaveTextContent(
      `${window.location.origin}/set-password#reset-tok`,
    );
    expect(api.sent('POST /api/admin/users/3/password')).toEqual([{ method: 'link' }]);
    await person.click(within(dialog).getByRole('button', { name: 'Done' }));

    await person.click(within(rowOf(table, target)).getByRole('button', { name: `Delete ${target}` }));
    dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    expect(dialog).toHaveTextContent(`Delete ${target}?`);
    await person.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`User ${target} deleted.`)).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/admin/users/3')).toHaveLength(1);
  });

  it("shows a person's API keys and revokes one after a confirmation", async () => {
    const target = 'person3@example.com';
    let keys: ApiKey[] = [
      {
        id: 7,
        name: 'fail2ban on web-1',
        access: 'ban',
        account_ids: [],
        list_ids: [],
        last_four: 'x9Qz',
        created_at: '2026-11-20T08:00:00.000Z',
        expires_at: null,
        last_used_at: '2026-11-24T10:00:00.000Z',
      },
    ];
    api.answer('GET /api/admin/users/3/api-keys', () => jsonResponse(200, keys));
    api.answer('DELETE /api/admin/users/3/api-keys/7', () => {
      keys = [];
      return new Response(null, { status: 204 });
    });
    const { person, table } = await openUsers();

    await person.click(within(rowOf(table, target)).getByRole('button', { name: `API keys of ${target}` }));
    const dialog = await screen.findByRole('dialog', { name: 'API Keys' });
    const keysTable = await within(dialog).findByRole('table', { name: `API keys of ${target}` });
    const row = within(keysTable).getByText('fail2ban on web-1').closest('tr')!;
    expect(row).toHaveTextContent('…x9Qz');
    expect(row).toHaveTextContent('Ban');
    await person.click(within(row).getByRole('button', { name: 'Revoke API key fail2ban on web-1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API Key' });
    expect(confirm).toHaveTextContent(`Revoke the key "fail2ban on web-1" of ${target}?`);
    await person.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(`API key fail2ban on web-1 of ${target} revoked.`)).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/admin/users/3/api-keys/7')).toHaveLength(1);
    expect(await within(dialog).findByText(`${target} has no API keys.`)).toBeInTheDocument();
  });

  it('says that disabling, a level change and a password reset revoke the API keys', async () => {
    const target = 'person4@example.com';
    const { person, table } = await openUsers();
    const said = async (button: string, title: string) => {
      await person.click(within(rowOf(table, target)).getByRole('button', { name: `${button} ${target}` }));
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(dialog, title).toHaveTextContent(/their API keys are revoked/i);
      await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    };
    await said('Disable', 'Disable User');
    await said('Change level of', 'Change Level');
    await said('Reset password of', 'Reset Password');
  });

  it('says why when the users cannot be read, with Retry', async () => {
    api.answer('GET /api/admin/users', () =>
      jsonResponse(400, {
        code: 'BAD_REQUEST',
        message: 'The search must be at most 254 characters.',
        errors: [],
      }),
    );
    const person = userEvent.setup();
    renderApp('/admin/users');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch users. The search must be at most 254 characters.',
    );
    api.answer('GET /api/admin/users', (call) => jsonResponse(200, usersPage(call.params)));
    await person.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Users' })).toBeInTheDocument();
  });

  it('is not for level 1: no admin menu, and the page asks the server nothing', async () => {
    setToken(sessionToken({ level: 1 }));
    renderApp('/admin/users');
    expect(await screen.findByText('Only administrators manage users.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin menu' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('navigation', { name: 'Main menu' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/users')).toHaveLength(0);
  });

  it('gives a person another plan from their row, and the Plan column says it', async () => {
    const { person, table } = await openUsers();
    expect(rowOf(table, 'person3@example.com')).toHaveTextContent('Standard');
    api.answer('PUT /api/admin/users/3/plan', (call) => {
      const changed = { ...people[2]!, plan_id: (call.body as { plan_id: number }).plan_id };
      people[2] = changed;
      return jsonResponse(200, changed);
    });
    await person.click(
      within(rowOf(table, 'person3@example.com')).getByRole('button', {
        name: 'Change plan of person3@example.com',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Change Plan' });
    await person.selectOptions(within(dialog).getByLabelText(/^Plan/), 'Starter');
    await person.click(within(dialog).getByRole('button', { name: 'Save Plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('PUT /api/admin/users/3/plan')).toEqual([{ plan_id: 2 }]);
    expect(await screen.findByText('person3@example.com now has Starter.')).toBeInTheDocument();
    await waitFor(() => expect(rowOf(table, 'person3@example.com')).toHaveTextContent('Starter'));
    people[2] = user(3);
  });
});
