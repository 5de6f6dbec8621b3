import { useQueryClient } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { OwnSession } from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useConfirm, useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { clearToken } from '../../lib/auth-token';
import { useEndOtherSessionsMutation } from '../../api/own-account/other-sessions-end-mutation';
import { useEndOwnSessionMutation } from '../../api/own-account/own-session-end-mutation';
import { useOwnSessionsQuery } from '../../api/own-account/own-sessions-query';
import { deviceLabel } from './device-label';
import { ProfileSection } from './profile-section';

const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The profile page's sessions: every open sign-in of the person, newest first, with its browser, address
 * and when it was last used; end any of them, or all but this browser's.
 */
export function SessionsSection() {
  const sessions = useOwnSessionsQuery();
  const end = useEndOwnSessionMutation();
  const endOthers = useEndOtherSessionsMutation();
  const confirm = useConfirm();
  const confirmAction = useConfirmedAction();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const endSession = (session: OwnSession) =>
    confirm({
      title: 'End Session',
      message: session.current
        ? 'End the session of this browser? You will be signed out.'
        : `End the session signed in on ${moment.format(new Date(session.created_at))}? That browser is signed out at its next request.`,
      confirmLabel: session.current ? 'End and Sign Out' : 'End Session',
      busyLabel: 'Ending...',
      action: () => end.mutateAsync(session.id),
    }).then(
      (ended) => {
        if (!ended) return;
        if (session.current) {
          // This browser's session is over: signed out here as the user menu's Logout does.
          clearToken();
          queryClient.clear();
          void navigate('/login', { replace: true });
        } else {
          toast.success('Session ended.');
        }
      },
      (error: unknown) => toast.error(actionErrorMessage(error, 'Failed to end the session.')),
    );

  const endOtherSessions = () => {
    let ended = 0;
    return confirmAction({
      title: 'Sign out all other sessions',
      message:
        'Every other browser signed in as you is signed out at its next request; this one stays signed in. Your API keys keep working.',
      confirmLabel: 'Sign out all other sessions',
      busyLabel: 'Signing out...',
      action: async () => {
        ended = (await endOthers.mutateAsync()).ended;
      },
      done: () => (ended === 1 ? '1 other session ended.' : `${ended} other sessions ended.`),
      failed: 'Failed to sign out the other sessions.',
    });
  };
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  return (
    <ProfileSection
      id="sessions"
      icon={MonitorSmartphone}
      title="Sessions"
      description="Where you are signed in, newest first. End one you do not recognise, then change your password."
      action={
        others > 0 && (
          <Button variant="secondary" size="sm" onClick={() => void endOtherSessions()}>
            Sign out all other sessions
          </Button>
        )
      }
    >
      {sessions.isError ? (
        <ErrorMessage className="mt-4" onRetry={() => void sessions.refetch()}>
          {actionErrorMessage(sessions.error, 'Failed to fetch your sessions.')}
        </ErrorMessage>
      ) : sessions.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading sessions...</p>
      ) : sessions.data.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No open sessions.</p>
      ) : (
        <ul aria-label="Sessions" className="mt-4 divide-y divide-line">
          {sessions.data.map((session) => {
            const signedIn = moment.format(new Date(session.created_at));
            return (
              <li key={session.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-ink">
                    <span title={session.user_agent ?? undefined}>{deviceLabel(session.user_agent)}</span>
                    {session.current && <Badge tone="green">This browser</Badge>}
                  </p>
                  <p className="text-sm break-words text-ink-muted">
                    Signed in {signedIn}
                    {session.address && ` from ${session.address}`}
                  </p>
                  <p className="text-xs text-ink-muted">
                    {session.last_seen_at && `Last seen ${moment.format(new Date(session.last_seen_at))} · `}
                    Expires {moment.format(new Date(session.expires_at))}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={
                    session.current ? 'Sign Out of this browser' : `End Session signed in ${signedIn}`
                  }
                  onClick={() => void endSession(session)}
                >
                  {session.current ? 'Sign Out' : 'End Session'}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </ProfileSection>
  );
}
