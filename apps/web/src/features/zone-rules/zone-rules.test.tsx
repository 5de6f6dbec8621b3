import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { PAGE_RULE_SETTINGS, type FirewallRule, type PageRule } from '@guardian/contract';
import { AppProviders, createQueryClient } from '../../app/providers';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type Answer } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';
import ZoneRulesScreen from '.';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const FIREWALL_PATH = `/api/cloudflare/zones/${ZONE}/firewall-rules`;
const PAGE_RULES_PATH = `/api/cloudflare/zones/${ZONE}/pagerules`;
const SETTINGS_PATH = `/api/cloudflare/zones/${ZONE}/settings`;

/** The zone's settings at Cloudflare, as GET .../settings answers them; the page-rule editor reads its level. */
const zoneSettings = (securityLevel: string | null) => ({
  alwaysUseHTTPS: true,
  botFightMode: false,
  underAttackMode: securityLevel === 'under_attack',
  blockAITrainingBots: true,
  securityLevel,
  unreadable: [],
});
const LONG_EXPRESSION =
  '(http.request.uri.path contains "/wp-login.php") or (http.request.uri.path contains "/xmlrpc.php")';

const firewallRule = (id: string, priority: number, overrides: Partial<FirewallRule> = {}): FirewallRule => ({
  id,
  description: `Rule ${id}`,
  action: 'block',
  paused: false,
  priority,
  filter: { id, expression: `ip.src eq 192.0.2.${priority}`, paused: false },
  ...overrides,
});

const pageRule = (id: string, priority: number, overrides: Partial<PageRule> = {}): PageRule => ({
  id,
  priority,
  status: 'active',
  targets: [{ target: 'url', constraint: { operator: 'matches', value: `example.com/${id}/*` } }],
  actions: [{ id: 'always_use_https', value: 'on' }],
  ...overrides,
});

/** The API of a zone with these rules: it lists them, takes back each one as sent, and deletes it. */
function rulesApi(state: { firewall: FirewallRule[]; pages: PageRule[] }) {
  const echo: Answer = (call) => jsonResponse(200, call.body);
  const deleted: Answer = () => new Response(null, { status: 204 });
  const answers: Record<string, Answer> = {
    'GET /api/cloudflare/zones': () =>
      jsonResponse(200, [
        {
          id: ZONE,
          domain: 'rules.example.com',
          accountName: 'Demo',
          account_id: 'a'.repeat(32),
          status: 'active',
          name_servers: [],
        },
      ]),
    [`GET ${FIREWALL_PATH}`]: () => jsonResponse(200, state.firewall),
    [`GET ${PAGE_RULES_PATH}`]: () => jsonResponse(200, state.pages),
    [`GET ${SETTINGS_PATH}`]: () => jsonResponse(200, zoneSettings('medium')),
  };
  for (const [path, rules] of [
    [FIREWALL_PATH, state.firewall],
    [PAGE_RULES_PATH, state.pages],
  ] as const) {
    for (const { id } of rules) {
      answers[`PUT ${path}/${id}`] = echo;
      answers[`DELETE ${path}/${id}`] = deleted;
    }
  }
  return fakeApi(answers);
}

const failure = (status: number, message: string) => () => errorResponse(status, 'BAD_REQUEST', message);

beforeEach(() => setToken(sessionToken({ level: 1 })));

async function openScreen() {
  const user = userEvent.setup();
  const view = renderApp(`/cloudflare/zones/${ZONE}/rules`);
  await screen.findByRole('heading', { name: `Rules for Zone ID: ${ZONE}` });
  return { user, ...view };
}

async function openPageRulesTab(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('tab', { name: 'Page Rules' }));
}

describe('zone rules screen', () => {
  it("keeps the spec's title, names the zone's domain beside it, and leads back to Zones", async () => {
    rulesApi({ firewall: [], pages: [] });
    await openScreen();
    expect(await screen.findByText('rules.example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Zones' })).toHaveAttribute('href', '/cloudflare/zones');
  });

  it('shows the heading and the tabs, Firewall Rules first, switchable by keyboard', async () => {
    rulesApi({ firewall: [], pages: [] });
    const { user } = await openScreen();
    const firewallTab = screen.getByRole('tab', { name: 'Firewall Rules' });
    expect(firewallTab).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No firewall rules found.')).toBeInTheDocument();
    firewallTab.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Page Rules' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No page rules found.')).toBeInTheDocument();
  });

  it("says 'Zone ID not found.' without a zone id", () => {
    const router = createMemoryRouter([{ path: '/rules', element: <ZoneRulesScreen /> }], {
      initialEntries: ['/rules'],
    });
    render(
      <AppProviders client={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(screen.getByText('Zone ID not found.')).toBeInTheDocument();
  });
});

describe('firewall rules tab', () => {
  it('lists the rules with every column, the cut expression and the status badges', async () => {
    const api = rulesApi({
      firewall: [
        firewallRule('a', 1, {
          description: 'Block login probes',
          filter: { id: 'a', expression: LONG_EXPRESSION, paused: false },
        }),
        firewallRule('b', 2, { action: 'js_challenge', paused: true }),
      ],
      pages: [],
    });
    const loading = api.held(`GET ${FIREWALL_PATH}`);
    await openScreen();
    expect(screen.getByText('Loading Firewall Rules...')).toBeInTheDocument();
    loading.release();
    await screen.findByText('Block login probes');
    const table = screen.getByRole('table', { name: 'Firewall rules' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Priority', 'Description', 'Action', 'Expression', 'Status', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Block login probes')).toBeInTheDocument();
    expect(within(first!).getByText(`${LONG_EXPRESSION.slice(0, 70)}...`)).toBeInTheDocument();
    expect(within(first!).getByText('Active')).toBeInTheDocument();
    expect(within(first!).getByText('Block')).toBeInTheDocument();
    expect(within(second!).getByText('JS Challenge')).toBeInTheDocument();
    expect(within(second!).getByText('Paused')).toBeInTheDocument();
    expect(within(second!).getByText('ip.src eq 192.0.2.2')).toBeInTheDocument();
    for (const name of ['Toggle Status', 'Edit', 'Delete']) {
      expect(within(first!).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(
      within(first!).getByRole('button', { name: 'Priority 1: Block login probes. Drag to reorder' }),
    ).toHaveAttribute('tabindex', '0');
  });

  it.each([
    [failure(404, 'Zone not found.'), 'Failed to fetch firewall rules: Zone not found.'],
    [() => new Response('', { status: 404 }), 'Failed to fetch firewall rules: An unknown error occurred.'],
  ])('replaces the view with the load error', async (response, text) => {
    const api = rulesApi({ firewall: [], pages: [] });
    api.answer(`GET ${FIREWALL_PATH}`, response);
    await openScreen();
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('button', { name: 'Add Firewall Rule' })).not.toBeInTheDocument();
  });

  it('adds a rule with the spec payload, replaces the list with the answer and toasts', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1)], pages: [] });
    const added = [
      firewallRule('a', 1),
      firewallRule('n', 2, { description: 'Challenge admin', action: 'block' }),
    ];
    const adding = api.held(`POST ${FIREWALL_PATH}`);
    const { user } = await openScreen();
    await screen.findByText('Rule a');
    await user.click(screen.getByRole('button', { name: 'Add Firewall Rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Firewall Rule' });

    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(within(dialog).getByText('Description is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Expression is required.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${FIREWALL_PATH}`).length).toBe(0);

    const help = within(dialog).getByRole('link', { name: /Expression help/ });
    expect(help).toHaveAttribute('href', 'https://developers.cloudflare.com/ruleset-engine/rules-language/');
    expect(help).toHaveAttribute('target', '_blank');
    expect(help).toHaveAttribute('rel', 'noopener');
    expect(within(dialog).getByLabelText('Action')).toHaveValue('block');
    expect(
      Array.from(
        within(dialog).getByLabelText('Action').querySelectorAll('option'),
        (option) => option.textContent,
      ),
    ).toEqual(['Block', 'Challenge', 'JS Challenge', 'Managed Challenge', 'Allow', 'Skip']);

    await user.type(within(dialog).getByLabelText(/Description/), 'Challenge admin');
    await user.type(within(dialog).getByLabelText(/Expression/), 'http.request.uri.path contains "/admin"');
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await within(dialog).findByRole('button', { name: 'Adding...' })).toBeDisabled();
    adding.release(jsonResponse(201, { result: added }));

    expect(await screen.findByText('Firewall rule added and priorities updated!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Challenge admin')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual([
      {
        description: 'Challenge admin',
        action: 'block',
        paused: false,
        filter: { expression: 'http.request.uri.path contains "/admin"', paused: false },
      },
    ]);
    expect(api.callsTo(`GET ${FIREWALL_PATH}`).length).toBe(1);
  });

  it("shows the server's refusal in red inside the modal", async () => {
    const api = rulesApi({ firewall: [], pages: [] });
    api.answer(`POST ${FIREWALL_PATH}`, failure(400, 'could not find list $no_such_list'));
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Add Firewall Rule' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Description/), 'x');
    await user.type(within(dialog).getByLabelText(/Expression/), 'ip.src in $no_such_list');
    await user.selectOptions(within(dialog).getByLabelText('Action'), 'allow');
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('could not find list $no_such_list');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject([{ action: 'allow' }]);
  });

  it('drops the server’s refusal once a field is edited, and a field’s message once the field is valid', async () => {
    const api = rulesApi({ firewall: [], pages: [] });
    api.answer(`POST ${FIREWALL_PATH}`, failure(400, 'could not find list $no_such_list'));
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Add Firewall Rule' }));
    const dialog = await screen.findByRole('dialog');
    const description = within(dialog).getByLabelText(/Description/);
    await user.type(description, 'x');
    await user.type(within(dialog).getByLabelText(/Expression/), 'ip.src in $no_such_list');
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('could not find list $no_such_list');

    await user.clear(description);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(within(dialog).getByText('Description is required.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await user.type(description, 'Block the scanner');
    expect(within(dialog).queryByText('Description is required.')).not.toBeInTheDocument();
    expect(api.callsTo(`POST ${FIREWALL_PATH}`)).toHaveLength(1);
  });

  it.each([
    ['ip.src eq', "Expected a value after 'eq' at character 10."],
    ['ip.src ==== 1', "Expected a value after '==' instead of '==' at character 10."],
  ])(
    "refuses the expression %j at its field, by the Rules language's grammar, before any request",
    async (expression, message) => {
      const api = rulesApi({ firewall: [], pages: [] });
      const { user } = await openScreen();
      await user.click(await screen.findByRole('button', { name: 'Add Firewall Rule' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText(/Description/), 'x');
      const field = within(dialog).getByLabelText(/Expression/);
      await user.type(field, expression);
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText(message)).toBeInTheDocument();
      expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(api.callsTo(`POST ${FIREWALL_PATH}`)).toHaveLength(0);

      await user.clear(field);
      await user.type(field, 'ip.src eq 192.0.2.1');
      expect(within(dialog).queryByText(message)).not.toBeInTheDocument();
    },
  );

  it("marks the expression field with the server's refusal of it", async () => {
    const api = rulesApi({ firewall: [], pages: [] });
    const message = 'could not find list $gone';
    api.answer(`POST ${FIREWALL_PATH}`, () =>
      errorResponse(400, 'BAD_REQUEST', message, 'filter.expression'),
    );
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Add Firewall Rule' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Description/), 'x');
    await user.type(within(dialog).getByLabelText(/Expression/), 'ip.src in $gone');
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/Expression/)).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
  });

  it('lets a rule keep the expression Cloudflare holds, even one this console cannot read', async () => {
    const api = rulesApi({
      firewall: [
        firewallRule('a', 1, { filter: { id: 'a', expression: 'cf.new_field eq 1', paused: false } }),
      ],
      pages: [],
    });
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Firewall Rule' });
    await user.type(within(dialog).getByLabelText(/Description/), ' renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.callsTo(`PUT ${FIREWALL_PATH}/a`)).toHaveLength(1));
  });

  it('edits a rule: the full rule is sent, then the list reloads', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1)], pages: [] });
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Firewall Rule' });
    expect(within(dialog).getByLabelText(/Description/)).toHaveValue('Rule a');
    expect(within(dialog).getByLabelText(/Expression/)).toHaveValue('ip.src eq 192.0.2.1');
    await user.clear(within(dialog).getByLabelText(/Description/));
    await user.type(within(dialog).getByLabelText(/Description/), 'Renamed');
    await user.selectOptions(within(dialog).getByLabelText('Action'), 'managed_challenge');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: `${FIREWALL_PATH}/a`,
      body: { ...firewallRule('a', 1), description: 'Renamed', action: 'managed_challenge' },
    });
    await waitFor(() => expect(api.callsTo(`GET ${FIREWALL_PATH}`).length).toBe(2));
    expect(await screen.findByRole('status')).toHaveTextContent('Firewall rule updated successfully!');
  });

  it('toggles a rule with the full rule, paused flipped, then reloads', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1)], pages: [] });
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Toggle Status' }));
    await waitFor(() => expect(api.callsTo(`GET ${FIREWALL_PATH}`).length).toBe(2));
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      ...firewallRule('a', 1),
      paused: true,
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Rule status updated successfully!');
  });

  it('replaces the view with the error of a failed toggle', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1)], pages: [] });
    api.answer(`PUT ${FIREWALL_PATH}/a`, () => new Response('', { status: 500 }));
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Toggle Status' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update rule status.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('asks before deleting, then deletes by filter id and reloads', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1, { description: 'Old rule' })], pages: [] });
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Firewall Rule' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete the rule "Old rule"? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo(`GET ${FIREWALL_PATH}`).length).toBe(2));
    const deleted = api.calls.find((call) => call.method === 'DELETE');
    expect(deleted).toMatchObject({ path: `${FIREWALL_PATH}/a` });
    expect(deleted?.params.toString()).toBe('filter_id=a');
    expect(await screen.findByRole('status')).toHaveTextContent('Firewall rule deleted successfully!');
  });

  it('replaces the view with the error of a failed delete', async () => {
    const api = rulesApi({ firewall: [firewallRule('a', 1)], pages: [] });
    api.answer(`DELETE ${FIREWALL_PATH}/a`, failure(404, 'Firewall rule not found.'));
    const { user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Firewall rule not found.');
  });
});

describe('page rules tab', () => {
  it('lists by ascending priority with the URL pattern, actions and status', async () => {
    rulesApi({
      firewall: [],
      pages: [
        pageRule('late', 3, {
          status: 'disabled',
          actions: [
            { id: 'cache_level', value: 'cache_everything' },
            { id: 'browser_cache_ttl', value: 14400 },
          ],
        }),
        pageRule('first', 1, {
          actions: [{ id: 'forwarding_url', value: { status_code: 301, url: 'https://example.com/new' } }],
        }),
      ],
    });
    const { user } = await openScreen();
    await openPageRulesTab(user);
    const table = await screen.findByRole('table', { name: 'Page rules' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Priority', 'URL Pattern', 'Actions', 'Status', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('example.com/first/*');
    expect(first).toHaveTextContent('Forwarding URL (301) to https://example.com/new');
    expect(first).toHaveTextContent('Active');
    expect(second).toHaveTextContent('example.com/late/*');
    expect(second).toHaveTextContent('Cache Level: Cache Everything');
    expect(second).toHaveTextContent('Browser Cache TTL: 4 hours');
    expect(second).not.toHaveTextContent(/cache_level|browser_cache_ttl/);
    expect(second).toHaveTextContent('Disabled');
  });

  it('shows the load error with its fallback', async () => {
    const api = rulesApi({ firewall: [], pages: [] });
    api.answer(`GET ${PAGE_RULES_PATH}`, () => new Response('', { status: 404 }));
    const { user } = await openScreen();
    await openPageRulesTab(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch page rules: An unknown error occurred.',
    );
  });

  describe('the editor', () => {
    async function openEditor() {
      const api = rulesApi({ firewall: [], pages: [] });
      const { user } = await openScreen();
      await openPageRulesTab(user);
      await user.click(await screen.findByRole('button', { name: 'Add Page Rule' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Page Rule' });
      const picker = within(dialog).getByRole('combobox', { name: 'Add a setting' });
      const offered = () =>
        Array.from(picker.querySelectorAll('option'), (option) => option.value).filter(
          (value) => value !== '',
        );
      return { api, user, dialog, picker, offered };
    }

    it('offers every setting first, in groups, under "Select a setting to add..."', async () => {
      const { picker, offered } = await openEditor();
      expect(within(picker).getByRole('option', { name: 'Select a setting to add...' })).toBeInTheDocument();
      expect(offered()).toHaveLength(PAGE_RULE_SETTINGS.length);
      expect(Array.from(picker.querySelectorAll('optgroup'), (group) => group.label)).toEqual([
        'Redirect',
        'SSL/HTTPS',
        'Cache',
        'Performance',
        'Security',
        'Header/Origin',
        'Disable',
      ]);
      expect(within(picker).getByRole('option', { name: 'Forwarding URL' })).toBeInTheDocument();
    });

    it('allows nothing else after a forwarding URL, which starts as 301 with an empty URL', async () => {
      const { user, dialog, picker, offered } = await openEditor();
      await user.selectOptions(picker, 'forwarding_url');
      expect(within(dialog).getByLabelText('Status code')).toHaveValue('301');
      expect(within(dialog).getByRole('textbox', { name: /Destination URL/ })).toHaveValue('');
      expect(picker).toBeDisabled();
      expect(offered()).toEqual([]);
      await user.click(within(dialog).getByRole('button', { name: 'Remove Forwarding URL' }));
      expect(picker).toBeEnabled();
      expect(offered()).toHaveLength(PAGE_RULE_SETTINGS.length);
    });

    it("offers only the first setting's group, each setting once, with the spec's defaults", async () => {
      const { user, dialog, picker, offered } = await openEditor();
      await user.selectOptions(picker, 'browser_cache_ttl');
      expect(within(dialog).getByLabelText('Browser Cache TTL')).toHaveDisplayValue(
        'Respect Existing Headers',
      );
      expect(
        Array.from(
          within(dialog).getByLabelText('Browser Cache TTL').querySelectorAll('option'),
          (option) => option.textContent,
        ),
      ).toEqual(['Respect Existing Headers', '30 seconds', '30 minutes', '1 hour', '4 hours', '1 day']);
      expect(offered()).toEqual([
        'edge_cache_ttl',
        'cache_level',
        'cache_deception_armor',
        'cache_by_device_type',
        'explicit_cache_control',
        'sort_query_string_for_cache',
      ]);
      await user.selectOptions(picker, 'cache_deception_armor');
      expect(within(dialog).getByRole('switch', { name: 'Cache Deception Armor' })).toHaveAttribute(
        'aria-checked',
        'true',
      );
      await user.selectOptions(picker, 'edge_cache_ttl');
      expect(within(dialog).getByRole('spinbutton', { name: /Edge Cache TTL/ })).toHaveValue(null);
      expect(offered()).not.toContain('edge_cache_ttl');
      expect(offered()).not.toContain('ssl');
      expect(picker).toHaveValue('');
    });

    it('starts a select setting at its first option', async () => {
      const { user, dialog, picker } = await openEditor();
      await user.selectOptions(picker, 'ssl');
      expect(within(dialog).getByLabelText('SSL')).toHaveDisplayValue('Off');
      expect(
        Array.from(
          within(dialog).getByLabelText('SSL').querySelectorAll('option'),
          (option) => option.textContent,
        ),
      ).toEqual(['Off', 'Flexible', 'Full', 'Full (Strict)']);
    });

    // Issue 35 item 12: Security Level started at Essentially Off, unwarned.
    it("starts Security Level at the zone's own level and warns when the rule lowers it", async () => {
      const { api, user, dialog, picker } = await openEditor();
      await waitFor(() => expect(api.callsTo(`GET ${SETTINGS_PATH}`)).toHaveLength(1));
      await user.selectOptions(picker, 'security_level');
      const level = within(dialog).getByLabelText('Security Level');
      await waitFor(() => expect(level).toHaveDisplayValue('Medium'));
      expect(within(dialog).queryByText(/lowers security/)).not.toBeInTheDocument();
      await user.selectOptions(level, 'Essentially Off');
      const warning =
        "Essentially Off lowers security for the URLs this rule matches: the zone's Security Level is Medium.";
      expect(within(dialog).getByText(warning)).toBeInTheDocument();
      expect(level).toHaveAccessibleDescription(warning);
      await user.selectOptions(level, 'High');
      expect(within(dialog).queryByText(/lowers security/)).not.toBeInTheDocument();
    });

    it("starts Security Level at High when the zone's level cannot be read", async () => {
      const api = rulesApi({ firewall: [], pages: [] });
      api.answer(`GET ${SETTINGS_PATH}`, () => jsonResponse(200, zoneSettings(null)));
      const { user } = await openScreen();
      await openPageRulesTab(user);
      await user.click(await screen.findByRole('button', { name: 'Add Page Rule' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Page Rule' });
      await waitFor(() => expect(api.callsTo(`GET ${SETTINGS_PATH}`)).toHaveLength(1));
      await user.selectOptions(
        within(dialog).getByRole('combobox', { name: 'Add a setting' }),
        'security_level',
      );
      const level = within(dialog).getByLabelText('Security Level');
      expect(level).toHaveDisplayValue('High');
      await user.selectOptions(level, 'Low');
      expect(level).toHaveAccessibleDescription(
        "Low lowers security for the URLs this rule matches, below Cloudflare's default (Medium).",
      );
    });

    it('requires the URL pattern and the text, number and forwarding URL inputs', async () => {
      const { api, user, dialog, picker } = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('URL pattern is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('Add at least one setting.')).toBeInTheDocument();

      await user.selectOptions(picker, 'host_header_override');
      await user.selectOptions(picker, 'resolve_override');
      await user.type(
        within(dialog).getByRole('textbox', { name: /Resolve Override/ }),
        'backend.example.net',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('Host Header Override is required.')).toBeInTheDocument();
      expect(within(dialog).queryByText('Resolve Override is required.')).not.toBeInTheDocument();
      expect(api.callsTo(`POST ${PAGE_RULES_PATH}`).length).toBe(0);

      await user.click(within(dialog).getByRole('button', { name: 'Remove Host Header Override' }));
      await user.click(within(dialog).getByRole('button', { name: 'Remove Resolve Override' }));
      await user.selectOptions(picker, 'edge_cache_ttl');
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('Edge Cache TTL (seconds) is required.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Remove Edge Cache TTL (seconds)' }));
      await user.selectOptions(picker, 'forwarding_url');
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('The destination URL is required.')).toBeInTheDocument();
    });

    it('refuses a destination that is not a full http(s) URL, at its field, before any request', async () => {
      const { api, user, dialog, picker } = await openEditor();
      const message =
        'The destination URL must be a full http:// or https:// address, such as https://www.example.com/$1.';
      await user.type(within(dialog).getByLabelText(/If the URL matches/), 'example.com/old/*');
      await user.selectOptions(picker, 'forwarding_url');
      const destination = within(dialog).getByRole('textbox', { name: /Destination URL/ });
      await user.type(destination, 'not a url');
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText(message)).toBeInTheDocument();
      expect(destination).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(api.callsTo(`POST ${PAGE_RULES_PATH}`)).toHaveLength(0);

      await user.clear(destination);
      await user.type(destination, 'https://example.com/new/$1');
      expect(within(dialog).queryByText(message)).not.toBeInTheDocument();
    });

    it('adds the rule with priority 1 and status active, then toasts and reloads', async () => {
      const { api, user, dialog, picker } = await openEditor();
      api.answer(`POST ${PAGE_RULES_PATH}`, () => jsonResponse(201, pageRule('new', 1)));
      await user.type(within(dialog).getByLabelText(/If the URL matches/), 'example.com/old/*');
      await user.selectOptions(picker, 'forwarding_url');
      await user.selectOptions(within(dialog).getByLabelText('Status code'), '302');
      await user.type(
        within(dialog).getByRole('textbox', { name: /Destination URL/ }),
        'https://example.com/new/$1',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(await screen.findByText('Page rule added successfully!')).toBeInTheDocument();
      expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
        targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/old/*' } }],
        actions: [{ id: 'forwarding_url', value: { status_code: 302, url: 'https://example.com/new/$1' } }],
        priority: 1,
        status: 'active',
      });
      await waitFor(() => expect(api.callsTo(`GET ${PAGE_RULES_PATH}`).length).toBe(2));
    });

    it("marks the setting and the URL pattern the server's refusal names", async () => {
      const { api, user, dialog, picker } = await openEditor();
      const refused = 'Cloudflare refused this destination.';
      const pattern = 'Cloudflare refused this URL pattern.';
      api.answer(`POST ${PAGE_RULES_PATH}`, () =>
        jsonResponse(400, {
          code: 'BAD_REQUEST',
          message: refused,
          errors: [
            { message: refused, field: 'actions.0.value.url' },
            { message: pattern, field: 'targets.0.constraint.value' },
          ],
        }),
      );
      const urlPattern = within(dialog).getByLabelText(/If the URL matches/);
      await user.type(urlPattern, 'example.com/old/*');
      await user.selectOptions(picker, 'forwarding_url');
      const destination = within(dialog).getByRole('textbox', { name: /Destination URL/ });
      await user.type(destination, 'https://example.com/new/$1');
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      await waitFor(() => expect(destination).toHaveAccessibleDescription(expect.stringContaining(refused)));
      expect(urlPattern).toHaveAccessibleDescription(expect.stringContaining(pattern));
    });

    it("shows the server's refusal in red inside the modal", async () => {
      const { api, user, dialog, picker } = await openEditor();
      api.answer(`POST ${PAGE_RULES_PATH}`, () => new Response('', { status: 500 }));
      await user.type(within(dialog).getByLabelText(/If the URL matches/), 'example.com/*');
      await user.selectOptions(picker, 'waf');
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to add page rule.');
    });

    it('drops each message once it no longer holds: the field fixed, the setting added, the form edited', async () => {
      const { api, user, dialog, picker } = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('URL pattern is required.')).toBeInTheDocument();
      expect(within(dialog).getByText('Add at least one setting.')).toBeInTheDocument();

      const urlPattern = within(dialog).getByLabelText(/If the URL matches/);
      await user.type(urlPattern, 'example.com/*');
      expect(within(dialog).queryByText('URL pattern is required.')).not.toBeInTheDocument();
      await user.selectOptions(picker, 'host_header_override');
      expect(within(dialog).queryByText('Add at least one setting.')).not.toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(within(dialog).getByText('Host Header Override is required.')).toBeInTheDocument();
      await user.type(
        within(dialog).getByRole('textbox', { name: /Host Header Override/ }),
        'origin.example.net',
      );
      expect(within(dialog).queryByText('Host Header Override is required.')).not.toBeInTheDocument();

      api.answer(`POST ${PAGE_RULES_PATH}`, () => new Response('', { status: 500 }));
      await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to add page rule.');
      await user.type(urlPattern, 'x');
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  it('edits a rule keeping its priority and status', async () => {
    const rule = pageRule('r', 4, { status: 'disabled', actions: [{ id: 'ssl', value: 'full' }] });
    const api = rulesApi({ firewall: [], pages: [rule] });
    const { user } = await openScreen();
    await openPageRulesTab(user);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Page Rule' });
    expect(within(dialog).getByLabelText(/If the URL matches/)).toHaveValue('example.com/r/*');
    await user.selectOptions(within(dialog).getByLabelText('SSL'), 'strict');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Page rule updated successfully!')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: `${PAGE_RULES_PATH}/r`,
      body: {
        id: 'r',
        targets: rule.targets,
        actions: [{ id: 'ssl', value: 'strict' }],
        priority: 4,
        status: 'disabled',
      },
    });
  });

  it('toggles a rule with the full rule, toasts and updates the row without a reload', async () => {
    const api = rulesApi({ firewall: [], pages: [pageRule('r', 1)] });
    const { user } = await openScreen();
    await openPageRulesTab(user);
    await user.click(await screen.findByRole('button', { name: 'Toggle Status' }));
    expect(await screen.findByText('Rule status updated successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      ...pageRule('r', 1),
      status: 'disabled',
    });
    expect(api.callsTo(`GET ${PAGE_RULES_PATH}`).length).toBe(1);
  });

  it('shows a failed toggle as a red toast', async () => {
    const api = rulesApi({ firewall: [], pages: [pageRule('r', 1)] });
    api.answer(`PUT ${PAGE_RULES_PATH}/r`, () => new Response('', { status: 500 }));
    const { user } = await openScreen();
    await openPageRulesTab(user);
    await user.click(await screen.findByRole('button', { name: 'Toggle Status' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update rule status.');
    expect(screen.getByRole('table', { name: 'Page rules' })).toBeInTheDocument();
  });

  it('asks before deleting with the URL pattern, then toasts and reloads', async () => {
    const api = rulesApi({ firewall: [], pages: [pageRule('r', 1)] });
    const { user } = await openScreen();
    await openPageRulesTab(user);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Page Rule' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete the rule "example.com/r/*"? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Page rule deleted successfully!')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(`GET ${PAGE_RULES_PATH}`).length).toBe(2));
  });
});
