import type { ChatDetail } from '@mizan/contracts';
import { isApiError } from '@mizan/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Flex, Form, Input, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { chatApi, chatKeys } from '../api';
import { EmployeePicker } from '../list/EmployeePicker';
import { textCount } from '@mizan/ui';

interface Values {
  name: string;
  memberIds: number[];
  adminIds: number[];
}

export interface ChatSettingsProps {
  chat: ChatDetail;
  me: number;
  open: boolean;
  onClose: () => void;
  /** The chat is gone for me (left, deleted): leave its page. */
  onGone: () => void;
}

/**
 * A chat's settings: group admins rename it and change its members and admins; members leave a
 * group; everyone archives or unarchives it for themselves; its creator deletes it.
 */
export function ChatSettings({ chat, me, open, onClose, onGone }: ChatSettingsProps) {
  const { t } = useTranslation('chat');
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const admin = chat.kind === 'group' && Boolean(chat.members.find((m) => m.id === me)?.admin);
  const refresh = () => queries.invalidateQueries({ queryKey: chatKeys.all });
  const act = async (work: () => Promise<unknown>, gone = false) => {
    await work();
    await refresh();
    if (gone) onGone();
    else onClose();
  };
  const save = async (values: Values) => {
    try {
      await act(() => chatApi.update(chat.id, values));
    } catch (error) {
      if (isApiError(error)) form.setFields(error.fieldErrors() as Parameters<typeof form.setFields>[0]);
    }
  };
  const known = chat.members.map((m) => ({ id: m.id, name: m.name }));

  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} destroyOnHidden>
      <Flex vertical gap={16}>
        {admin ? (
          <Form
            form={form}
            layout="vertical"
            onFinish={save}
            initialValues={{
              name: chat.name ?? '',
              memberIds: chat.members.map((m) => m.id),
              adminIds: chat.members.filter((m) => m.admin).map((m) => m.id),
            }}
          >
            <Form.Item
              name="name"
              label={t('new.name')}
              rules={[{ required: true, whitespace: true, message: t('new.nameRequired') }, { max: 100 }]}
            >
              <Input dir="auto" {...textCount(100)} />
            </Form.Item>
            <Form.Item name="memberIds" label={t('new.members')}>
              <EmployeePicker multiple known={known} />
            </Form.Item>
            <Form.Item name="adminIds" label={t('new.admins')}>
              <EmployeePicker multiple known={known} />
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('actions.save')}
            </Button>
          </Form>
        ) : (
          <Flex vertical>
            <Typography.Text strong>{t('new.members')}</Typography.Text>
            <ul>
              {chat.members.map((m) => (
                <li key={m.id}>
                  <bdi>{m.name}</bdi>
                  {m.admin && chat.kind === 'group' ? ` · ${t('settings.admin')}` : ''}
                </li>
              ))}
            </ul>
          </Flex>
        )}
        <Button onClick={() => void act(() => chatApi.archive(chat.id, { archived: !chat.archived }))}>
          {chat.archived ? t('settings.unarchive') : t('settings.archive')}
        </Button>
        {chat.kind === 'group' ? (
          <Popconfirm
            title={t('settings.leaveConfirm')}
            okText={t('settings.leave')}
            cancelText={t('actions.cancel')}
            onConfirm={() => act(() => chatApi.leave(chat.id), true)}
          >
            <Button danger>{t('settings.leave')}</Button>
          </Popconfirm>
        ) : null}
        {chat.createdBy === me ? (
          <Popconfirm
            title={t('settings.deleteConfirm')}
            okText={t('actions.delete')}
            cancelText={t('actions.cancel')}
            onConfirm={() => act(() => chatApi.remove(chat.id), true)}
          >
            <Button danger type="primary">
              {t('settings.delete')}
            </Button>
          </Popconfirm>
        ) : null}
      </Flex>
    </Drawer>
  );
}
