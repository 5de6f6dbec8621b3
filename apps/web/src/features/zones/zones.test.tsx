import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CloudflareAccount, Zone, ZoneSort } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { type Answer, fakeApi, type FakeApi, UPSTREAM_REASON, upstreamFailure } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { jsonResponse, renderApp } from '../../test/render-app';
import { columnHeaders } from '../../test/table';
import { sessionToken } from '../../test/token';
import { cloudflareAccount } from '../../test/cloudflare-account';

let api: FakeApi;

const PAGE = 'GET /api/cloudflare/zones/page';

/** The server's GET /api/cloudflare/zones/page over `zones`: searched, sorted and paged as it does. */
function pagesOf(zones: Zone[]): Answer {
  return ({ params }) => {
    const search = (params.get('search') ?? '').trim().toLowerCase();
    const sort = (params.get('sort') ?? 'domain') as ZoneSort;
    const sign = params.get('order') === 'desc' ? -1 : 1;
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const key = (zone: Zone) => (sort === 'accountName' ? zone.accountName.toLowerCase() : zone[sort]);
    const bytewise = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const found = zones
      .filter(
        (zone) =>
          zone.domain.toLowerCase().includes(search) || zone.accountName.toLowerCase().includes(search),
      )
      .sort((a, b) => sign * (bytewise(key(a), key(b)) || bytewise(a.domain, b.domain)));
    return jsonResponse(200, {
      zones: found.slice((page - 1) * perPage, page * perPage),
      totalZones: found.length,
    });
  };
}

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({ [PAGE]: pagesOf(ZONES) });
});

function zone(domain: string, overrides: Partial<Zone> = {}): Zone {
  return {
    id: `id-${domain}`,
    domain,
    accountName: 'Guardian Demo',
    account_id: 'acc-guardian',
    status: 'active',
    name_servers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'],
    ...overrides,
  };
}

const ZONES: Zone[] = [
  zone('zulu.com'),
  zone('alpha.com', { status: 'pending', accountName: 'Acme Security', account_id: 'acc-acme' }),
  zone('mike.com', { status: 'initializing' }),
  zone('bravo.com', { status: 'moved' }),
];

/** 120 zones: three pages of 50, domains zone-001.com ... zone-120.com. */
const MANY_ZONES = Array.from({ length: 120 }, (_, i) => zone(`zone-${String(i + 1).padStart(3, '0')}.com`));

const ACCOUNTS: CloudflareAccount[] = [
  cloudflareAccount(1, 'Guardian Demo', 'acc-guardian', 'abcd'),
  cloudflareAccount(2, 'Acme Security', 'acc-acme', 'efgh'),
];

async function openZones() {
  const user = userEvent.setup();
  const view = renderApp('/cloudflare/zones');
  await screen.findByRole('heading', { name: 'Zones' });
  return { user, ...view };
}

/** The domains of the table's rows, in order. */
function domains(): string[] {
  return screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent ?? '');
}

describe('zones table', () => {
  it('lists the zones by domain with every column of the spec', async () => {
    await openZones();
    await screen.findByText('alpha.com');
    expect(domains()).toEqual(['alpha.com', 'bravo.com', 'mike.com', 'zulu.com']);
    expect(columnHeaders()).toEqual([
      'No',
      'Domain',
      'Account Name',
      'Status',
      'Unique Visitors',
      'DNS',
      'Rules',
      'Settings',
      'Delete',
    ]);

    const row = screen.getByText('alpha.com').closest('tr')!;
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('1');
    expect(cells[2]).toHaveTextContent('Acme Security');
    expect(cells[4]).toHaveTextContent('N/A');
    expect(within(row).getByRole('link', { name: 'DNS records of alpha.com' })).toHaveAttribute(
      'href',
      '/cloudflare/zones/id-alpha.com/dns',
    );
    expect(within(row).getByRole('link', { name: 'Rules of alpha.com' })).toHaveAttribute(
      'href',
      '/cloudflare/zones/id-alpha.com/rules',
    );
  });

  it('colours the status badges: active green, pending yellow, initializing blue, anything else grey', async () => {
    await openZones();
    const badge = async (domain: string, status: string) =>
      within((await screen.findByText(domain)).closest('tr')!).getByText(status);
    expect(await badge('zulu.com', 'active')).toHaveClass('text-success');
    expect(await badge('alpha.com', 'pending')).toHaveClass('text-warning');
    expect(await badge('mike.com', 'initializing')).toHaveClass('bg-brand-soft');
    expect(await badge('bravo.com', 'moved')).toHaveClass('bg-slate-100');
  });

  it('offers the name servers of a pending zone only', async () => {
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    expect(screen.getAllByRole('button', { name: /^Name servers for/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Name servers for alpha.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Name servers for alpha.com' });
    expect(within(dialog).getByText('ada.ns.cloudflare.com')).toBeInTheDocument();
    expect(within(dialog).getByText('bob.ns.cloudflare.com')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('toggles the sort direction when a header is clicked', async () => {
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Domain' }));
    await waitFor(() => expect(domains()).toEqual(['zulu.com', 'mike.com', 'bravo.com', 'alpha.com']));
    await user.click(screen.getByRole('button', { name: 'Account Name' }));
    await waitFor(() => expect(domains()[0]).toBe('alpha.com'));
  });

  it('asks the server for one page at a time, in the order shown, and numbers the rows across pages', async () => {
    api.answer(PAGE, pagesOf(MANY_ZONES));
    const { user } = await openZones();
    await screen.findByText('zone-001.com');
    const asked = () => {
      const { params } = api.callsTo(PAGE).at(-1)!;
      return Object.fromEntries(params.entries());
    };
    expect(asked()).toEqual({ page: '1', per_page: '50', sort: 'domain', order: 'asc' });
    expect(domains()).toHaveLength(50);

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('zone-101.com')).toBeInTheDocument();
    expect(asked()).toEqual({ page: '3', per_page: '50', sort: 'domain', order: 'asc' });
    expect(domains()).toHaveLength(20);
    const cells = within(screen.getByText('zone-101.com').closest('tr')!).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('101');

    await user.click(screen.getByRole('button', { name: 'Domain' }));
    expect(await screen.findByText('zone-020.com')).toBeInTheDocument();
    expect(asked()).toEqual({ page: '3', per_page: '50', sort: 'domain', order: 'desc' });
    await user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(asked()).toMatchObject({ sort: 'status', order: 'asc' }));
  });

  it('keeps the page on screen while the next one loads, and says it is loading', async () => {
    api.answer(PAGE, pagesOf(MANY_ZONES));
    const { user } = await openZones();
    await screen.findByText('zone-001.com');
    const next = api.held(PAGE);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Loading zones...')).toBeInTheDocument();
    expect(screen.getByText('zone-001.com')).toBeInTheDocument();
    next.release();
    expect(await screen.findByText('zone-051.com')).toBeInTheDocument();
    expect(screen.queryByText('zone-001.com')).not.toBeInTheDocument();
    expect(screen.queryByText('Loading zones...')).not.toBeInTheDocument();
  });

  it('searches once the typing stops; searching jumps to page 1 and clearing the search restores the page', async () => {
    api.answer(PAGE, pagesOf(MANY_ZONES));
    const { user } = await openZones();
    await screen.findByText('zone-001.com');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('zone-101.com')).toBeInTheDocument();

    const search = screen.getByPlaceholderText('Search Domain or Account...');
    await user.type(search, 'zone-0');
    expect(await screen.findByText('zone-001.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    // Debounced: one request for the search, not one per character typed.
    const searches = api.callsTo(PAGE).filter((call) => call.params.has('search'));
    expect(searches.map((call) => call.params.get('search'))).toEqual(['zone-0']);
    expect(searches[0]!.params.get('page')).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('zone-051.com')).toBeInTheDocument();
    await user.type(search, '9');
    await waitFor(() => expect(domains()).toEqual(Array.from({ length: 10 }, (_, i) => `zone-09${i}.com`)));
    expect(api.callsTo(PAGE).at(-1)!.params.get('page')).toBe('1');

    await user.clear(search);
    expect(await screen.findByText('zone-101.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    expect(api.callsTo(PAGE).at(-1)!.params.has('search')).toBe(false);
  });

  it('searches account names too', async () => {
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.type(screen.getByPlaceholderText('Search Domain or Account...'), 'acme');
    await waitFor(() => expect(domains()).toEqual(['alpha.com']));
    await user.clear(screen.getByPlaceholderText('Search Domain or Account...'));
    await user.type(screen.getByPlaceholderText('Search Domain or Account...'), 'nothing-like-it');
    expect(await screen.findByText('No zones match your search.')).toBeInTheDocument();
  });

  it('replaces the page with the spec’s message when the zones cannot be fetched', async () => {
    api.answer(PAGE, () => jsonResponse(403, { code: 'FORBIDDEN', message: 'x', errors: [] }));
    await openZones();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch zones.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('Update List', () => {
  it('syncs, says Syncing... meanwhile, and re-fetches the list', async () => {
    const syncing = api.held('POST /api/cloudflare/zones/sync');
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toBeDisabled();

    api.answer(PAGE, pagesOf([...ZONES, zone('new-one.com')]));
    syncing.release(jsonResponse(200, { zones: 5 }));
    expect(await screen.findByText('new-one.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update List' })).toBeEnabled();
    // Every successful write says so (apps/web/README.md, success feedback).
    expect(await screen.findByRole('status')).toHaveTextContent('Zones updated.');
  });

  it('a long sync (202, its job) shows the pages read of all until it ends, then re-fetches', async () => {
    const running = jobOf({
      kind: 'zones-sync',
      target: 'All zones',
      account_name: null,
      done: 4,
      total: 20,
    });
    api.answer('POST /api/cloudflare/zones/sync', () => jsonResponse(202, running));
    const polled = api.held(`GET /api/jobs/${running.id}`);
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    api.answer('GET /api/jobs', () => jsonResponse(200, { jobs: [running], unseen: 0 }));
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    await waitFor(() => expect(api.callsTo(`GET /api/jobs/${running.id}`).length).toBeGreaterThan(0));
    polled.release(jsonResponse(200, running));
    const strip = await screen.findByRole('region', { name: 'Update List' });
    expect(strip).toHaveTextContent('Updating zones... 4 of 20 pages (20%)');
    expect(screen.getByRole('button', { name: 'Syncing...' })).toBeDisabled();

    api.answer('GET /api/jobs', () => jsonResponse(200, { jobs: [], unseen: 0 }));
    api.answer(`GET /api/jobs/${running.id}`, () =>
      jsonResponse(200, { ...running, state: 'succeeded', done: 20, result: { zones: 5 } }),
    );
    api.answer(PAGE, pagesOf([...ZONES, zone('new-one.com')]));
    expect(await screen.findByText('new-one.com')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Update List' })).toBeNull();
    expect(await screen.findByRole('status')).toHaveTextContent('Zones updated.');
  });

  it('says Failed to sync zones. when the sync fails', async () => {
    api.answer('POST /api/cloudflare/zones/sync', () => new Response(null, { status: 502 }));
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to sync zones\.$/);
  });

  it('shows no toast when the sync is refused because the session ended (the login page says why)', async () => {
    const ended = 'Your session has ended. Please sign in again.';
    api.answer('POST /api/cloudflare/zones/sync', () =>
      jsonResponse(401, {
        code: 'UNAUTHORIZED',
        message: ended,
        errors: [{ code: 'UNAUTHORIZED', message: ended }],
      }),
    );
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    await waitFor(() =>
      expect(api.calls.some((call) => call.path === '/api/cloudflare/zones/sync')).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says Failed to sync zones. then the server's reason", async () => {
    api.answer('POST /api/cloudflare/zones/sync', () => upstreamFailure());
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Failed to sync zones. ${UPSTREAM_REASON}`);
  });
});

describe('Add Zone', () => {
  async function openAddZone() {
    api.answer('GET /api/cloudflare/accounts', () => jsonResponse(200, ACCOUNTS));
    const view = await openZones();
    await view.user.click(screen.getByRole('button', { name: 'Add Zone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Zone' });
    await within(dialog).findByRole('option', { name: 'Acme Security' });
    return { ...view, dialog };
  }

  it('requires an account and a domain name', async () => {
    const { user, dialog } = await openAddZone();
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    expect(within(dialog).getByText('Account is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Domain name is required.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/cloudflare/zones')).toHaveLength(0);
  });

  it('adds the zone, says Adding... meanwhile, then shows its name servers', async () => {
    const adding = api.held('POST /api/cloudflare/zones');
    const { user, dialog } = await openAddZone();
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'acc-acme');
    await user.type(within(dialog).getByLabelText(/Domain Name/), 'New-Site.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    expect(await within(dialog).findByRole('button', { name: 'Adding...' })).toBeDisabled();
    expect(api.sent('POST /api/cloudflare/zones')).toEqual([
      { account_id: 'acc-acme', domain: 'new-site.com' },
    ]);

    adding.release(
      jsonResponse(201, {
        result: {
          id: 'z1',
          name: 'new-site.com',
          status: 'pending',
          name_servers: ['kate.ns.cloudflare.com', 'max.ns.cloudflare.com'],
        },
      }),
    );
    const nameServers = await screen.findByRole('dialog', { name: 'Name servers for new-site.com' });
    expect(within(nameServers).getByText('kate.ns.cloudflare.com')).toBeInTheDocument();
    expect(within(nameServers).getByText('max.ns.cloudflare.com')).toBeInTheDocument();
    expect(nameServers).toHaveTextContent(/registrar/);
    expect(screen.queryByRole('dialog', { name: 'Add Zone' })).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(PAGE)).toHaveLength(2));
  });

  /** Opens Add Zone, with Cloudflare answering an add that twice.com already exists. */
  async function openAddZoneRefusingTwice() {
    api.answer('POST /api/cloudflare/zones', () =>
      jsonResponse(400, {
        code: 'BAD_REQUEST',
        message: 'dup',
        errors: [{ code: 1061, message: 'twice.com already exists' }],
      }),
    );
    return openAddZone();
  }

  it('shows the first message of the errors array, or Failed to add zone.', async () => {
    const { user, dialog } = await openAddZoneRefusingTwice();
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'acc-guardian');
    await user.type(within(dialog).getByLabelText(/Domain Name/), 'twice.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('twice.com already exists');

    api.answer('POST /api/cloudflare/zones', () => new Response('Bad gateway', { status: 502 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to add zone.'));
  });

  it('drops the server’s message once a field is edited, and a field’s message once the field is valid', async () => {
    const { user, dialog } = await openAddZoneRefusingTwice();
    const domain = within(dialog).getByLabelText(/Domain Name/);
    await user.selectOptions(within(dialog).getByLabelText(/Account/), 'acc-guardian');
    await user.type(domain, 'twice.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('twice.com already exists');

    await user.clear(domain);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Zone' }));
    expect(within(dialog).getByText('Domain name is required.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await user.type(domain, 'other.com');
    expect(within(dialog).queryByText('Domain name is required.')).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/cloudflare/zones')).toHaveLength(1);
  });

  it('says Failed to fetch accounts. when the accounts cannot be loaded', async () => {
    api.answer('GET /api/cloudflare/accounts', () =>
      jsonResponse(403, { code: 'FORBIDDEN', message: 'no', errors: [] }),
    );
    const { user } = await openZones();
    await user.click(screen.getByRole('button', { name: 'Add Zone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Zone' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to fetch accounts.');
  });
});

describe('Delete zone', () => {
  it('asks, says Deleting... meanwhile, deletes and re-fetches', async () => {
    const deleting = api.held('DELETE /api/cloudflare/zones/id-alpha.com');
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Delete alpha.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Zone' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to permanently delete the zone alpha.com? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();

    api.answer(PAGE, pagesOf(ZONES.slice(0, 1)));
    deleting.release(new Response(null, { status: 204 }));
    await waitFor(() => expect(screen.queryByText('alpha.com')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent('Zone alpha.com deleted.');
  });

  it('sends nothing when the person cancels', async () => {
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Delete alpha.com' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });

  it('says Failed to delete zone. when the delete fails', async () => {
    api.answer('DELETE /api/cloudflare/zones/id-alpha.com', () => new Response(null, { status: 502 }));
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Delete alpha.com' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete zone.');
    expect(screen.getByText('alpha.com')).toBeInTheDocument();
  });

  it("says Failed to delete zone. then the server's reason", async () => {
    api.answer('DELETE /api/cloudflare/zones/id-alpha.com', () => upstreamFailure());
    const { user } = await openZones();
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Delete alpha.com' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Failed to delete zone. ${UPSTREAM_REASON}`);
  });
});
