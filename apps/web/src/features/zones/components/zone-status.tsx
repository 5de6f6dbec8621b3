import { Info } from 'lucide-react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';

/** Spec section 4: active green, pending yellow, initializing blue, anything else grey. */
const STATUS_TONES: Record<string, BadgeTone> = {
  active: 'green',
  pending: 'yellow',
  initializing: 'blue',
};

export function zoneStatusTone(status: string): BadgeTone {
  return STATUS_TONES[status] ?? 'grey';
}

interface ZoneStatusProps {
  domain: string;
  status: string;
  /** Opens the zone's name servers; offered while the zone is pending. */
  onShowNameServers: () => void;
}

export function ZoneStatus({ domain, status, onShowNameServers }: ZoneStatusProps) {
  return (
    <span className="inline-flex items-center gap-1">
      <Badge tone={zoneStatusTone(status)} className="capitalize">
        {status}
      </Badge>
      {status === 'pending' && (
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={`Name servers for ${domain}`}
          title="Name servers"
          onClick={onShowNameServers}
        >
          <Info aria-hidden="true" className="size-4" />
        </Button>
      )}
    </span>
  );
}
