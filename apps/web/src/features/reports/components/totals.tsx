/** A report's headline figures, in a row of small cards. */
export function Totals({ items }: { items: { label: string; value: string }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="rounded-card border border-line bg-surface px-4 py-3 shadow-xs">
          <dt className="text-xs text-ink-muted">{item.label}</dt>
          <dd className="text-lg font-semibold tracking-tight text-ink tabular-nums">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
