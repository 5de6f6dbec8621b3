import { Activity, Server, ShieldAlert, ShieldBan } from 'lucide-react';
import { PageHeader } from '../../components/ui/page-header';
import { StatTile } from './components/stat-tile';

/** Spec section 2: four static tiles; nothing is fetched. */
const TILES = [
  { label: 'Active Servers', value: '12', icon: Server, accent: 'bg-brand-soft text-brand' },
  { label: 'Security Alerts', value: '5', icon: ShieldAlert, accent: 'bg-warning-soft text-warning' },
  { label: 'Blocked Threats', value: '1,287', icon: ShieldBan, accent: 'bg-danger-soft text-danger' },
  { label: 'System Health', value: '99.8%', icon: Activity, accent: 'bg-success-soft text-success' },
];

/** The user dashboard, at /dashboard and /dashboard/overview. */
export default function OverviewScreen() {
  return (
    <>
      <PageHeader title="Genel Durum" />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {TILES.map((tile) => (
          <StatTile key={tile.label} {...tile} />
        ))}
      </div>
    </>
  );
}
