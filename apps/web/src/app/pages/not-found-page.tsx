import { Link } from 'react-router';
import { buttonClassName } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <section className="rounded-card border border-line bg-surface px-6 py-12 text-center shadow-xs">
        <p className="text-5xl font-bold text-brand">404</p>
        <p className="mt-3 text-sm text-ink-muted">There is no page at this address.</p>
        <Link to="/dashboard" className={buttonClassName('primary', 'md', 'mt-6')}>
          Back to Dashboard
        </Link>
      </section>
    </>
  );
}
