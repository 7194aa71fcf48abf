import { TaskItem, TaskList } from '@tiptap/extension-list';
import StarterKit from '@tiptap/starter-kit';

/**
 * What the text attachment holds: StarterKit's paragraphs, headings, bold, italic, underline,
 * strike, lists, quotes and links (opened only on purpose, never on a click while editing), and
 * checklists. Everything here survives the server's sanitiser (its allow-list includes Tiptap's
 * task-list attributes).
 */
export const TEXT_EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    codeBlock: false,
    link: { openOnClick: false, autolink: true, protocols: ['mailto', 'tel'] },
  }),
  TaskList,
  TaskItem.configure({ nested: true }),
];
