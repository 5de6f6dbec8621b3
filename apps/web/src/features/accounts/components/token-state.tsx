import { useState } from 'react';
import type { CloudflareAccount } from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
/** A token that expires within this is flagged before it stops working. */
const EXPIRES_SOON_MS = 14 * 86_400_000;

type TokenStatus = CloudflareAccount['token_status'];

const LABELS: Record<NonNullable<TokenStatus>, { text: string; tone: BadgeTone }> = {
  active: { text: 'Valid', tone: 'green' },
  disabled: { text: 'Disabled', tone: 'red' },
  expired: { text: 'Expired', tone: 'red' },
  revoked: { text: 'Revoked', tone: 'red' },
};

/**
 * The token's state under its masked value: valid (and until when), or disabled, expired or revoked
 * at Cloudflare, which Guardian rechecks every few hours; the time of the last check on hover.
 */
export function TokenState({ account }: { account: CloudflareAccount }) {
  const { token_status: status, token_expires_on: expiresOn, token_checked_at: checkedAt } = account;
  const { text, tone } =
    status === null ? { text: 'Not checked yet', tone: 'grey' as const } : LABELS[status];
  // The time the screen was drawn: "soon" does not need to tick while the person looks.
  const [now] = useState(() => Date.now());
  const soon = status === 'active' && expiresOn !== null && Date.parse(expiresOn) - now < EXPIRES_SOON_MS;
  const checked = checkedAt ? `Checked at Cloudflare ${moment.format(new Date(checkedAt))}` : undefined;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1 font-sans" title={checked}>
      <Badge tone={soon ? 'yellow' : tone}>{text}</Badge>
      {status === 'active' && expiresOn && (
        <span className={soon ? 'text-warning text-xs font-medium' : 'text-ink-muted text-xs'}>
          Expires {day.format(new Date(expiresOn))}
        </span>
      )}
      {checked && <span className="sr-only">{checked}</span>}
    </span>
  );
}
