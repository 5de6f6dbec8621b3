import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorMessage } from '../../components/ui/error-message';
import { GuardianLogo } from '../../components/guardian-logo';

/**
 * Shown when a screen throws while rendering, or its code cannot be loaded (a new release replaced
 * the old chunk files): a reload fetches the new ones.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center gap-6 px-6">
      <GuardianLogo />
      <ErrorMessage>
        Something went wrong while showing this page.{detail ? ` (${detail})` : ''} Please reload the page.
      </ErrorMessage>
      <div>
        <button
          type="button"
          className="text-sm font-medium text-brand underline-offset-2 hover:underline"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    </main>
  );
}
