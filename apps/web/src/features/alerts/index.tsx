import { AlertsView } from './components/alerts-view';

/** Dashboard > Alerts (/dashboard/alerts): the person's alerts, to acknowledge and resolve. */
export default function AlertsScreen() {
  return <AlertsView />;
}
