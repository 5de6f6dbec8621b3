import guide from '../../../../../docs/guide/user-guide.md?raw';
import { MarkdownDoc } from './components/markdown-doc';

/** Help and Support > Guide (/support/guide): the user guide of docs/guide, searchable. */
export default function GuideScreen() {
  return <MarkdownDoc markdown={guide} searchLabel="Search the guide" />;
}
