import faq from '../../../../../docs/guide/faq.md?raw';
import { MarkdownDoc } from './components/markdown-doc';

/** Help and Support > FAQ (/support/faq): the questions of docs/guide/faq.md, searchable. */
export default function FaqScreen() {
  return <MarkdownDoc markdown={faq} searchLabel="Search the questions" />;
}
