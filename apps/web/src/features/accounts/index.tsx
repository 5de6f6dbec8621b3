import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** Cloudflare Accounts (spec section 2). Placeholder until the accounts screen lands. */
export default function AccountsScreen() {
  return (
    <>
      <PageHeader title="Cloudflare Accounts" />
      <PlaceholderPanel title="Cloudflare Accounts" />
    </>
  );
}
