// HTML to plain text, in one place for the server, on html-to-text (a real HTML parser: entities,
// nesting, <br> and block elements are handled as a browser would, where regular expressions
// missed cases). Three shapes of the same conversion:
// - documentText: a fetched web page (scripts, styles, images, forms and navigation chrome dropped;
//   links keep their targets) for the research agent and the fetch tool;
// - bodyText: an email or activity body (paragraphs and line breaks kept; a link keeps its target
//   after its text, as mail clients' text views do);
// - inlineText: a snippet on one line (a search result's title or description).
import { compile } from 'html-to-text';

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));
const skip = (selector: string) => ({ selector, format: 'skip' });

const toDocumentText = compile({
  wordwrap: false,
  baseElements: { selectors: ['body'], returnDomByDefault: true },
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, ignoreHref: false, noAnchorUrl: true } },
    ...['img', 'head', 'title', 'script', 'style', 'noscript', 'template', 'svg', 'form'].map(skip),
    { selector: 'nav', format: 'block' },
    ...headings,
  ],
});

const toBodyText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    ...['img', 'head', 'title', 'script', 'style'].map(skip),
    { selector: 'p', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    ...headings,
  ],
});

const toInlineText = compile({
  wordwrap: false,
  selectors: [{ selector: 'a', options: { ignoreHref: true } }, skip('img')],
});

const tidy = (s: string) => s.replace(/\n{3,}/g, '\n\n').trim();

/** Readable text of an HTML document: scripts, styles, images and forms dropped; links keep their targets. */
export const documentText = (html: string): string => tidy(toDocumentText(html));

/** The text of an email or activity body: one line per paragraph or line break, entities decoded. */
export const bodyText = (html: string): string => tidy(toBodyText(html));

/** A fragment's text on one line, whitespace collapsed (search snippets, titles). */
export const inlineText = (html: string): string => toInlineText(html).replace(/\s+/g, ' ').trim();
