import { useState, type ReactNode } from 'react';
import { Button, Divider, Flex, Input, Popover, Tooltip } from 'antd';
import {
  BoldOutlined,
  CheckSquareOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useEditorState, type Editor } from '@tiptap/react';
import { useTranslation } from 'react-i18next';

/** One toggle of the toolbar: pressed while the mark or block applies at the cursor. */
function Tool({
  label,
  icon,
  active,
  disabled,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={label}>
      <Button
        type={active ? 'primary' : 'text'}
        size="small"
        icon={icon}
        aria-label={label}
        aria-pressed={active === undefined ? undefined : active}
        disabled={disabled}
        onClick={onClick}
      />
    </Tooltip>
  );
}

/** A link's address for the selection: empty removes the link. */
function LinkTool({ editor, active }: { editor: Editor; active: boolean }) {
  const { t } = useTranslation('tasks');
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const apply = () => {
    const chain = editor.chain().focus().extendMarkRange('link');
    const url = href.trim();
    if (url) chain.setLink({ href: /^(https?:|mailto:|tel:)/i.test(url) ? url : `https://${url}` }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      trigger="click"
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setHref(String(editor.getAttributes('link').href ?? ''));
      }}
      content={
        <Flex gap={8}>
          <Input
            autoFocus
            dir="ltr"
            value={href}
            aria-label={t('text.linkAddress')}
            placeholder="https://"
            onChange={(event) => setHref(event.target.value)}
            onPressEnter={apply}
          />
          <Button type="primary" onClick={apply}>
            {t('text.linkApply')}
          </Button>
        </Flex>
      }
    >
      <Button
        type={active ? 'primary' : 'text'}
        size="small"
        icon={<LinkOutlined />}
        aria-label={t('text.link')}
        aria-pressed={active}
      />
    </Popover>
  );
}

/**
 * The text attachment's formatting bar: bold, italic, underline, strike, bulleted, numbered and
 * check lists, a link, undo and redo; each a labelled toggle (`aria-pressed`) in a toolbar.
 */
export function TextToolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation('tasks');
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      taskList: e.isActive('taskList'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () =>
    command(editor.chain().focus()).run();

  return (
    <Flex role="toolbar" aria-label={t('text.toolbar')} wrap gap={2} align="center">
      <Tool
        label={t('text.bold')}
        icon={<BoldOutlined />}
        active={state.bold}
        onClick={run((c) => c.toggleBold())}
      />
      <Tool
        label={t('text.italic')}
        icon={<ItalicOutlined />}
        active={state.italic}
        onClick={run((c) => c.toggleItalic())}
      />
      <Tool
        label={t('text.underline')}
        icon={<UnderlineOutlined />}
        active={state.underline}
        onClick={run((c) => c.toggleUnderline())}
      />
      <Tool
        label={t('text.strike')}
        icon={<StrikethroughOutlined />}
        active={state.strike}
        onClick={run((c) => c.toggleStrike())}
      />
      <Divider orientation="vertical" />
      <Tool
        label={t('text.bulletList')}
        icon={<UnorderedListOutlined />}
        active={state.bulletList}
        onClick={run((c) => c.toggleBulletList())}
      />
      <Tool
        label={t('text.orderedList')}
        icon={<OrderedListOutlined />}
        active={state.orderedList}
        onClick={run((c) => c.toggleOrderedList())}
      />
      <Tool
        label={t('text.taskList')}
        icon={<CheckSquareOutlined />}
        active={state.taskList}
        onClick={run((c) => c.toggleTaskList())}
      />
      <LinkTool editor={editor} active={state.link} />
      <Divider orientation="vertical" />
      <Tool
        label={t('text.undo')}
        icon={<UndoOutlined />}
        disabled={!state.canUndo}
        onClick={run((c) => c.undo())}
      />
      <Tool
        label={t('text.redo')}
        icon={<RedoOutlined />}
        disabled={!state.canRedo}
        onClick={run((c) => c.redo())}
      />
    </Flex>
  );
}
