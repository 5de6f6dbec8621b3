import type { ReactNode } from 'react';
import { createContext, use } from 'react';
import type { Session } from './auth-token';

const SessionContext = createContext<Session | null>(null);

/** Given by the route guard to everything under a signed-in route. */
export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext value={session}>{children}</SessionContext>;
}

/** The signed-in person (e-mail, level, isAdmin). Only for screens under the signed-in routes. */
export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession is only available under a signed-in route.');
  return session;
}
