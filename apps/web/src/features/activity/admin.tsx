import { ActivityView } from './components/activity-view';

/** The admin menu's Activity (/admin/activity): everyone's audit trail. */
export default function AdminActivityScreen() {
  return <ActivityView scope="everyone" />;
}
