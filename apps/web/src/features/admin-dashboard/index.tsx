import { ShieldCheck } from 'lucide-react';
import { PageHeader } from '../../components/ui/page-header';
import { useSession } from '../../lib/session';

/** The administrator's dashboard: only a welcome panel (spec section 1). */
export default function AdminDashboardScreen() {
  const { email } = useSession();
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      <section className="relative overflow-hidden rounded-card bg-sidebar px-6 py-10 text-white shadow-md sm:px-10">
        <ShieldCheck aria-hidden="true" className="absolute -right-6 -bottom-8 size-48 text-white/5" />
        <p className="text-sm font-medium text-brand-on-dark">Your Digital Guardian</p>
        <h2 className="mt-2 text-2xl font-semibold tracking-tight sm:text-3xl">
          Welcome{email ? `, ${email}` : ''}
        </h2>
        <p className="mt-3 max-w-xl text-sm text-sidebar-ink">
          Manage users, plans, system settings and helpdesk requests from the menu.
        </p>
      </section>
    </>
  );
}
