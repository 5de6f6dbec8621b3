import { lazy } from 'react';
import { useSession } from '../../lib/session';

const AdminDashboard = lazy(() => import('../../features/admin-dashboard'));
const Overview = lazy(() => import('../../features/overview'));

/** /dashboard: the admin's welcome panel for level 0, the user's overview for anyone else (spec section 2). */
export function DashboardPage() {
  return useSession().isAdmin ? <AdminDashboard /> : <Overview />;
}
