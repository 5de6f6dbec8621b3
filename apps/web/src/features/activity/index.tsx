import { ActivityView } from './components/activity-view';

/** Dashboard > Activity (/dashboard/activity): the person's own audit trail. */
export default function ActivityScreen() {
  return <ActivityView scope="mine" />;
}
