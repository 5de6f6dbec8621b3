import { useMemo, useState, type ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { SearchInput } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyCard } from '../../../components/ui/query-list';

/** One `## ` section of a document: its heading, its anchor and its Markdown (heading included). */
export interface DocSection {
  title: string;
  slug: string;
  markdown: string;
}

/** The longest search the box takes (a few words). */
const SEARCH_MAX = 100;

const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A document's title (its `# ` line), its lead (the text before the first section) and its sections. */
export function splitDocument(markdown: string): { title: string; lead: string; sections: DocSection[] } {
  const [head = '', ...parts] = markdown.split(/^(?=## )/m);
  const title = /^# (.+)$/m.exec(head)?.[1]?.trim() ?? '';
  const lead = head.replace(/^# .+$/m, '').trim();
  const sections = parts.map((part) => {
    const heading = part.slice(3, part.indexOf('\n') === -1 ? undefined : part.indexOf('\n')).trim();
    return { title: heading, slug: slugOf(heading), markdown: part.trim() };
  });
  return { title, lead, sections };
}

/** The words of a search, lowercased, each at least 2 characters. */
export function searchWords(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => word.length >= 2),
    ),
  ];
}

/** A section matches when every word is in it (heading or text). */
export const sectionMatches = (section: DocSection, words: string[]) =>
  words.every((word) => section.markdown.toLowerCase().includes(word));

// The few shapes of the HTML tree (hast) the highlighter walks; react-markdown hands it over.
interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A rehype plugin: every text occurrence of the words is wrapped in <mark> (code blocks too). */
function highlightWords(words: string[]) {
  const pattern = words.length ? new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'gi') : undefined;
  const visit = (node: HastNode) => {
    if (!pattern || !('children' in node) || !node.children) return;
    node.children = node.children.flatMap((child): HastNode[] => {
      if (child.type !== 'text') {
        visit(child);
        return [child];
      }
      // split() with one capture group puts each match at an odd place.
      return (child as HastText).value.split(pattern).flatMap((part, index): HastNode[] => {
        if (part === '') return [];
        if (index % 2 === 0) return [{ type: 'text', value: part }];
        return [
          { type: 'element', tagName: 'mark', properties: {}, children: [{ type: 'text', value: part }] },
        ];
      });
    });
  };
  return () => (tree: HastNode) => visit(tree);
}

const link =
  'font-medium text-brand underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand';

/** The console's look for the Markdown's elements (no raw HTML: react-markdown shows it as text). */
const components: Components = {
  h2: ({ node: _node, ...props }) => <h2 className="mb-2 text-lg font-semibold text-ink" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mt-3 mb-1 font-semibold text-ink" {...props} />,
  p: ({ node: _node, ...props }) => <p className="mb-2 text-sm leading-6 text-ink" {...props} />,
  ul: ({ node: _node, ...props }) => (
    <ul className="mb-2 list-disc space-y-1 pl-5 text-sm text-ink" {...props} />
  ),
  ol: ({ node: _node, ...props }) => (
    <ol className="mb-2 list-decimal space-y-1 pl-5 text-sm text-ink" {...props} />
  ),
  code: ({ node: _node, ...props }) => (
    <code className="rounded bg-canvas px-1 py-0.5 font-mono text-[0.85em] break-words" {...props} />
  ),
  a: ({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) => (
    <a className={link} {...props} />
  ),
  mark: ({ node: _node, ...props }: ComponentProps<'mark'> & { node?: unknown }) => (
    <mark className="rounded-sm bg-yellow-200 px-0.5 text-ink" {...props} />
  ),
};

/**
 * A document written in the repository as Markdown (docs/guide), shown section by section with a
 * search box: the sections holding every word stay, their words marked.
 */
export function MarkdownDoc({ markdown, searchLabel }: { markdown: string; searchLabel: string }) {
  const { title, lead, sections } = useMemo(() => splitDocument(markdown), [markdown]);
  const [search, setSearch] = useState('');
  const words = useMemo(() => searchWords(search), [search]);
  const shown = words.length ? sections.filter((section) => sectionMatches(section, words)) : sections;
  const rehypePlugins = useMemo(() => [highlightWords(words)], [words]);

  return (
    <>
      <PageHeader title={title} description={lead} />
      <div className="mb-4 grid gap-2 sm:max-w-md">
        <SearchInput
          aria-label={searchLabel}
          placeholder={searchLabel}
          maxLength={SEARCH_MAX}
          onSearch={setSearch}
        />
        <p aria-live="polite" className="text-xs text-ink-muted">
          {words.length
            ? `${shown.length} of ${sections.length} sections match “${search.trim()}”.`
            : `${sections.length} sections.`}
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr] lg:items-start">
        <nav
          aria-label="Sections"
          className="rounded-card border border-line bg-surface p-3 text-sm lg:sticky lg:top-4"
        >
          <ul className="space-y-1">
            {shown.map((section) => (
              <li key={section.slug}>
                <a href={`#${section.slug}`} className={link}>
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="space-y-4">
          {shown.length === 0 ? (
            <EmptyCard>No section holds every word of “{search.trim()}”.</EmptyCard>
          ) : (
            shown.map((section) => (
              <section
                key={section.slug}
                id={section.slug}
                aria-label={section.title}
                className="scroll-mt-4 rounded-card border border-line bg-surface px-4 py-3 shadow-xs"
              >
                <Markdown components={components} rehypePlugins={rehypePlugins}>
                  {section.markdown}
                </Markdown>
              </section>
            ))
          )}
        </div>
      </div>
    </>
  );
}
