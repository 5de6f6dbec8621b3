import { Construction } from 'lucide-react';

/** The body of a page whose contents are still to come, so nobody lands on a blank page. */
export function PlaceholderPanel({ title }: { title: string }) {
  return (
    <section className="flex flex-col items-center rounded-card border border-dashed border-line-strong bg-surface px-6 py-14 text-center">
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand">
        <Construction aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-base font-semibold text-ink">This page is on its way</h2>
      <p className="mt-1 max-w-md text-sm text-ink-muted">
        {title} is part of Guardian&apos;s roadmap. Its contents will appear here in a coming release.
      </p>
    </section>
  );
}
