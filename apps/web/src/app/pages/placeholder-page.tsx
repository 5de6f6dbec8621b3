import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

interface PlaceholderPageProps {
  title: string;
  /** The menu group the page belongs to. */
  section?: string;
}

/** A menu page whose contents the spec does not describe. */
export function PlaceholderPage({ title, section }: PlaceholderPageProps) {
  return (
    <>
      <PageHeader title={title} description={section} />
      <PlaceholderPanel title={title} />
    </>
  );
}
