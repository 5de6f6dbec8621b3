import type { ComponentProps } from 'react';
import { Input } from '../../../components/ui/input';

/** A Cloudflare API token's field: hidden as it is typed, never completed or corrected by the browser. */
export function TokenInput(props: Omit<ComponentProps<typeof Input>, 'type'>) {
  return <Input {...props} type="password" autoComplete="off" autoCapitalize="none" spellCheck={false} />;
}
