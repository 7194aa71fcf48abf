import type { CreateChatBody } from '@mizan/contracts';
import { isApiError } from '@mizan/sdk';
import { Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../api';
import { EmployeePicker } from './EmployeePicker';
import { textCount } from '@mizan/ui';

interface Values {
  kind: 'direct' | 'group';
  memberId?: number;
  name?: string;
  memberIds?: number[];
  adminIds?: number[];
}

/** Starts a chat: one-to-one with an employee (the existing one if there is one) or a named group. */
export function NewChatModal({
  open,
  onClose,
  onOpened,
}: {
  open: boolean;
  onClose: () => void;
  onOpened: (chatId: number) => void;
}) {
  const { t } = useTranslation('chat');
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? 'direct';
  const [saving, setSaving] = useState(false);

  const submit = async (values: Values) => {
    const body: CreateChatBody =
      values.kind === 'direct'
        ? { kind: 'direct', memberId: values.memberId! }
        : {
            kind: 'group',
            name: values.name ?? '',
            memberIds: values.memberIds ?? [],
            adminIds: values.adminIds ?? [],
          };
    setSaving(true);
    try {
      const answer = await chatApi.create(body);
      form.resetFields();
      onOpened(answer.chat.id);
    } catch (error) {
      if (isApiError(error)) form.setFields(error.fieldErrors() as Parameters<typeof form.setFields>[0]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('new.title')}
      okText={t('new.start')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ kind: 'direct' }} onFinish={submit}>
        <Form.Item name="kind" label={t('new.kind')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'direct', label: t('new.direct') },
              { value: 'group', label: t('new.group') },
            ]}
          />
        </Form.Item>
        {kind === 'direct' ? (
          <Form.Item
            name="memberId"
            label={t('new.employee')}
            rules={[{ required: true, message: t('new.employeeRequired') }]}
          >
            <EmployeePicker />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="name"
              label={t('new.name')}
              rules={[{ required: true, whitespace: true, message: t('new.nameRequired') }, { max: 100 }]}
            >
              <Input dir="auto" {...textCount(100)} />
            </Form.Item>
            <Form.Item
              name="memberIds"
              label={t('new.members')}
              rules={[{ required: true, message: t('new.membersRequired') }]}
            >
              <EmployeePicker multiple />
            </Form.Item>
            <Form.Item name="adminIds" label={t('new.admins')} extra={t('new.adminsHelp')}>
              <EmployeePicker multiple />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
