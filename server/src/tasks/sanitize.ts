import type sanitizeHtml from 'sanitize-html';

/**
 * What the working note's editor (Tiptap on the client) writes, and nothing else: paragraphs,
 * headings, emphasis, lists and task lists (checkboxes), quotes, code, rules, tables and links.
 * No images (files are the task's attachments), no styles, classes only for code languages.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'hr',
    'a',
    'span',
    'mark',
    'label',
    'input',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    ol: ['start'],
    ul: ['data-type'],
    li: ['data-type', 'data-checked'],
    input: ['type', 'checked', 'disabled'],
    code: ['class'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    '*': ['dir'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Dropped with their content: never text a reader would want.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object'],
  transformTags: {
    // A link opens in a new tab without handing the note's page to it.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' },
    }),
    // The only input is a task item's checkbox.
    input: (tagName, attribs) => ({
      tagName,
      attribs: { type: 'checkbox', ...('checked' in attribs ? { checked: 'checked' } : {}) },
    }),
  },
};

/**
 * The working note as stored and shown: the editor's HTML through an allow-list (sanitize-html),
 * so scripts, event handlers, `javascript:`/`data:` links, styles and foreign tags never reach a
 * reader, whatever a client sends.
 *
 * @example await sanitizeTaskText('<p onclick="x()">Hi<script>alert(1)</script></p>') // '<p>Hi</p>'
 */
export async function sanitizeTaskText(html: string): Promise<string> {
  // sanitize-html (with its CSS parser) is loaded with the first note written.
  const { default: sanitize } = await import('sanitize-html');
  return sanitize(html, OPTIONS);
}
