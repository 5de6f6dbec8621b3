import { PlanUse } from '../../components/plan-use';
import { PageHeader } from '../../components/ui/page-header';
import { useSession } from '../../lib/session';
import { ApiKeysSection } from './api-keys-section';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

/** Profile (/profile, from the top bar's user menu): what a person manages about themselves. */
export default function ProfileScreen() {
  const { email } = useSession();
  return (
    <>
      <PageHeader title="Profile" description={email ?? undefined} />
      <div className="grid gap-6">
        <PlanUse />
        <PasswordSection />
        <TwoFactorSection />
        <SessionsSection />
        <ApiKeysSection />
        <NotificationsSection />
      </div>
    </>
  );
}
