import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Plan, PlanFields } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { stubResizeObserver } from '../../test/resize-observer';
import { sessionToken } from '../../test/token';

let api: FakeApi;
let plans: Plan[];

const standard: Plan = {
  id: 1,
  name: 'Standard',
  accounts: 100,
  zones: 5_000,
  lists: 1_000,
  list_items: 10_000_000,
  api_keys: 20,
  servers: 500,
  templates: 100,
  report_range: '30d',
  is_default: true,
  users: 3,
};
const starter: Plan = {
  ...standard,
  id: 2,
  name: 'Starter',
  accounts: 1,
  report_range: '24h',
  is_default: false,
  users: 1,
};

const refusal = (status: number, code: string, message: string) =>
  jsonResponse(status, { code, message, errors: [{ code, message }] });

beforeEach(() => {
  stubResizeObserver();
  setToken(sessionToken({ level: 0, email: 'admin@example.com' }));
  plans = [standard, starter];
  api = fakeApi({ 'GET /api/admin/plans': () => jsonResponse(200, plans) });
});

async function openPlans() {
  const person = userEvent.setup();
  renderApp('/admin/plans');
  const table = await screen.findByRole('table', { name: 'Plans' });
  await within(table).findByText('Starter');
  return { person, table };
}
const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest('tr')!;

describe('Plans (administrators)', () => {
  it('lists each plan with its limits, report range, people and which is the default', async () => {
    const { table } = await openPlans();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Name',
      'Cloudflare accounts',
      'Zones',
      'Lists',
      'List items',
      'API keys',
      'Servers',
      'Templates',
      'Reports',
      'People',
      'Actions',
    ]);
    const row = rowOf(table, 'Standard');
    expect(row).toHaveTextContent('Default');
    expect(row).toHaveTextContent('10,000,000');
    expect(row).toHaveTextContent('30 days');
    expect(rowOf(table, 'Starter')).toHaveTextContent('24 hours');
    // The default plan is already the default: no button to make it so.
    expect(within(row).queryByRole('button', { name: /Make Standard/ })).not.toBeInTheDocument();
  });

  it("adds a plan: the contract's messages on the fields, then the request with numbers", async () => {
    const { person } = await openPlans();
    api.answer('POST /api/admin/plans', (call) => {
      const fields = call.body as PlanFields;
      const created = { ...fields, id: 3, is_default: false, users: 0 };
      plans = [...plans, created];
      return jsonResponse(201, created);
    });
    await person.click(screen.getByRole('button', { name: 'Add Plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Plan' });
    await person.click(within(dialog).getByRole('button', { name: 'Add Plan' }));
    expect(await within(dialog).findByText('Name is required.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Cloudflare accounts must be a whole number from 0 to 100,000,000.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/plans')).toHaveLength(0);

    await person.type(within(dialog).getByLabelText(/^Name/), 'Team');
    const values: Record<string, string> = {
      'Cloudflare accounts': '2',
      Zones: '20',
      Lists: '5',
      'List items': '5000',
      'API keys': '3',
      Servers: '4',
      Templates: '0',
    };
    for (const [label, value] of Object.entries(values)) {
      await person.type(within(dialog).getByLabelText(new RegExp(`^${label}`)), value);
    }
    await person.selectOptions(within(dialog).getByLabelText(/^Reports reach back/), '7d');
    await person.click(within(dialog).getByRole('button', { name: 'Add Plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST /api/admin/plans')).toEqual([
      {
        name: 'Team',
        accounts: 2,
        zones: 20,
        lists: 5,
        list_items: 5000,
        api_keys: 3,
        servers: 4,
        templates: 0,
        report_range: '7d',
      },
    ]);
    expect(await screen.findByText('Plan Team created.')).toBeInTheDocument();
    expect(await screen.findByText('Team')).toBeInTheDocument();
  });

  it('says why a plan in use is not deleted, and makes another plan the default', async () => {
    const { person, table } = await openPlans();
    const inUse = '"Starter" is in use by ada@example.com: give them another plan first.';
    api.answer('DELETE /api/admin/plans/2', () => refusal(409, 'CONFLICT', inUse));
    await person.click(within(rowOf(table, 'Starter')).getByRole('button', { name: 'Delete Starter' }));
    await person.click(
      within(screen.getByRole('dialog', { name: 'Delete Plan' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText(`Failed to delete the plan. ${inUse}`)).toBeInTheDocument();

    api.answer('POST /api/admin/plans/2/default', () => {
      plans = [
        { ...standard, is_default: false },
        { ...starter, is_default: true },
      ];
      return jsonResponse(200, plans[1]);
    });
    await person.click(
      within(rowOf(table, 'Starter')).getByRole('button', { name: 'Make Starter the default plan' }),
    );
    expect(await screen.findByText('New people now get Starter.')).toBeInTheDocument();
    await waitFor(() => expect(rowOf(table, 'Starter')).toHaveTextContent('Default'));
  });

  it('tells anyone else that only administrators manage plans, without asking the server', async () => {
    setToken(sessionToken({ level: 1 }));
    renderApp('/admin/plans');
    expect(await screen.findByText('Only administrators manage plans.')).toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/plans')).toHaveLength(0);
  });
});
