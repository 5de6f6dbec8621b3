import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobsList } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const jobsList = (unseen: number): JobsList => ({ jobs: [], unseen });

/** The bell's red dot: drawn inside the bell's link, hidden from assistive technology (its name says it). */
const dotOf = (bell: HTMLElement) => bell.querySelector('.bg-danger');

/** A screen that asks the server nothing (a placeholder): only the top bar's own calls are made. */
const SHELL_ONLY = '/support/guide';

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

describe('the bell', () => {
  it('lights its red dot and says how many operations ended since the person last looked', async () => {
    const api = fakeApi({ 'GET /api/jobs': () => jsonResponse(200, jobsList(2)) });
    renderApp(SHELL_ONLY);
    const bell = await screen.findByRole('link', { name: 'Operations, 2 ended since you last looked' });
    expect(bell).toHaveAttribute('href', '/dashboard/jobs');
    expect(dotOf(bell)).not.toBeNull();
    expect(api.callsTo('GET /api/jobs')[0]?.params.get('scope')).toBe('mine');
  });

  it('shows no dot when nothing ended unseen', async () => {
    fakeApi({ 'GET /api/jobs': () => jsonResponse(200, jobsList(0)) });
    renderApp(SHELL_ONLY);
    const bell = await screen.findByRole('link', { name: 'Operations' });
    expect(dotOf(bell)).toBeNull();
  });

  it('opens the operations view, which tells the server they were seen: the dot goes out', async () => {
    const user = userEvent.setup();
    // As the server: one ended unseen until the person says they have looked.
    let seen = false;
    const api = fakeApi({
      'GET /api/jobs': () => jsonResponse(200, jobsList(seen ? 0 : 1)),
      'POST /api/jobs/seen': () => {
        seen = true;
        return new Response(null, { status: 204 });
      },
    });
    renderApp(SHELL_ONLY);
    await user.click(await screen.findByRole('link', { name: 'Operations, 1 ended since you last looked' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Operations' })).toBeVisible();
    await waitFor(() => expect(api.callsTo('POST /api/jobs/seen').length).toBeGreaterThan(0));
    const bell = await screen.findByRole('link', { name: 'Operations' });
    expect(dotOf(bell)).toBeNull();
  });
});

describe('the open alerts count', () => {
  it("shows the number of the person's open alerts beside the bell and opens the alerts page", async () => {
    const user = userEvent.setup();
    fakeApi({
      'GET /api/alerts/summary': () => jsonResponse(200, { open: 3 }),
      'GET /api/alerts': () => jsonResponse(200, { alerts: [], next_cursor: null }),
    });
    renderApp(SHELL_ONLY);
    const count = await screen.findByRole('link', { name: 'Alerts, 3 open' });
    expect(count).toHaveTextContent('3');
    // The bell still opens the operations view.
    expect(screen.getByRole('link', { name: 'Operations' })).toHaveAttribute('href', '/dashboard/jobs');
    await user.click(count);
    expect(await screen.findByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  });

  it('shows no number when none is open', async () => {
    fakeApi({ 'GET /api/alerts/summary': () => jsonResponse(200, { open: 0 }) });
    renderApp(SHELL_ONLY);
    expect(await screen.findByRole('link', { name: 'Alerts, none open' })).toHaveTextContent(/^$/);
  });

  it('shows "999+" when the server stops counting', async () => {
    fakeApi({ 'GET /api/alerts/summary': () => jsonResponse(200, { open: 1000 }) });
    renderApp(SHELL_ONLY);
    expect(await screen.findByRole('link', { name: 'Alerts, 999+ open' })).toHaveTextContent('999+');
  });
});

/** WCAG 2.5.3 (axe's label-content-name-mismatch): a control's name holds the words it shows. */
describe('names that hold what is shown', () => {
  it('names the user menu by the e-mail it shows, then what it is', async () => {
    setToken(sessionToken({ level: 1, email: 'ayse@example.com' }));
    fakeApi({ 'GET /api/jobs': () => jsonResponse(200, jobsList(0)) });
    renderApp(SHELL_ONLY);
    // Chromium says 'ayse@example.com (user menu)'; jsdom drops the space (e2e/accessible-names.spec.ts).
    const trigger = await screen.findByRole('button', { name: /^ayse@example\.com ?\(user menu\)$/ });
    expect(trigger).not.toHaveAttribute('aria-label');
    expect(trigger).toHaveTextContent('ayse@example.com');
  });

  it("names the logo link by the logo's words, then where it goes", async () => {
    fakeApi({ 'GET /api/jobs': () => jsonResponse(200, jobsList(0)) });
    renderApp(SHELL_ONLY);
    // jsdom applies no media queries (the drawer's sidebar is there too) nor blocks (no space after 'Guardian').
    const [logo] = await screen.findAllByRole('link', {
      name: /^Guardian\s*Your Digital Guardian \(Dashboard\)$/,
    });
    expect(logo).not.toHaveAttribute('aria-label');
    expect(logo).toHaveAttribute('href', '/dashboard');
  });
});
