import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

export interface NameServersView {
  domain: string;
  nameServers: string[];
  /** Right after Add Zone, rather than from a pending zone's info button. */
  justAdded: boolean;
}

interface NameServersDialogProps {
  view: NameServersView | null;
  onClose: () => void;
}

/** Tells the person which name servers to set at the registrar for a zone to become active. */
export function NameServersDialog({ view, onClose }: NameServersDialogProps) {
  return (
    <Dialog
      open={view !== null}
      onOpenChange={(open) => !open && onClose()}
      title={view ? `Name servers for ${view.domain}` : ''}
      description={
        view?.justAdded
          ? `${view.domain} was added to Cloudflare and is pending until its name servers change.`
          : `${view?.domain ?? ''} is pending until its name servers change.`
      }
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <p className="text-sm text-ink">
        Sign in to your domain registrar and replace the name servers of{' '}
        <strong className="font-semibold break-words">{view?.domain}</strong> with these Cloudflare name
        servers:
      </p>
      <ol className="space-y-2">
        {view?.nameServers.map((nameServer) => (
          <li
            key={nameServer}
            className="rounded-control border border-line bg-canvas px-3 py-2 font-mono text-sm break-words text-ink select-all"
          >
            {nameServer}
          </li>
        ))}
      </ol>
      <p className="text-sm text-ink-muted">
        Cloudflare activates the zone once the registrar serves these name servers; this can take up to 24
        hours. Press Update List to see the new status.
      </p>
    </Dialog>
  );
}
