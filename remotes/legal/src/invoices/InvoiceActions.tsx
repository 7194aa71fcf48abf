import { useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Space, Tag } from 'antd';
import {
  CheckOutlined,
  FileAddOutlined,
  PrinterOutlined,
  RollbackOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { invoiceLines, invoices, permissionKey, type Entity, type Fields } from '@mizan/contracts';
import { entityKeys, notify, useAuth } from '@mizan/sdk';
import { recordPath, type EntityRow } from '@mizan/ui';
import { runAction } from '../api';

const entity = invoices as unknown as Entity<Fields>;

/** The print view's address of an invoice (`?lng=` picks the first language of the page). */
export const printPath = (id: number) => `${invoices.route}/${id}/print`;

const STATE_COLORS: Record<string, string> = {
  draft: 'default',
  issued: 'blue',
  partlyPaid: 'gold',
  paid: 'green',
  void: 'red',
};

/** An invoice's state (and kind, for a credit note) as tags. */
export function InvoiceStateTag({ row }: { row: EntityRow }) {
  const { t } = useTranslation('entities');
  return (
    <Space size={4}>
      {row.kind === 'creditNote' && <Tag color="purple">{t('invoices.values.kind.creditNote')}</Tag>}
      <Tag color={STATE_COLORS[String(row.state)]}>{t(`invoices.values.state.${String(row.state)}`)}</Tag>
    </Space>
  );
}

/**
 * What may be done to an invoice, as its state and the user's permissions allow: bring in unbilled
 * time and expenses and issue (a draft), void with a reason, make a credit note (an issued
 * invoice), print (any). A refusal (409, 422) shows the server's message.
 */
export function InvoiceActions({ row }: { row: EntityRow }) {
  const { t } = useTranslation('legal');
  const { can } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'void' | 'creditNote' | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: entityKeys.all(invoices.name) }),
      queryClient.invalidateQueries({ queryKey: entityKeys.all(invoiceLines.name) }),
    ]);
  const act = useMutation({
    mutationFn: ({ action, body }: { action: string; body?: Record<string, unknown> }) =>
      runAction(entity, action, row.id, body ?? {}),
    onSuccess: (result, { action }) => {
      notify.success(t(`invoices.done.${action}`));
      setAsking(null);
      if (action === 'creditNote') navigate(recordPath(entity, result.id));
    },
    onSettled: refresh,
  });
  const may = (action: string) => can(permissionKey(invoices.name, action));
  const draft = row.state === 'draft';
  const open = ['issued', 'partlyPaid', 'paid'].includes(String(row.state));
  const run = (action: string, body?: Record<string, unknown>) =>
    act.mutateAsync({ action, body }).catch(() => undefined);

  return (
    <Space wrap>
      <InvoiceStateTag row={row} />
      {draft && row.kind === 'invoice' && may('collect') && (
        <Button icon={<FileAddOutlined />} loading={act.isPending} onClick={() => run('collect')}>
          {t('invoices.collect')}
        </Button>
      )}
      {draft && may('issue') && (
        <Popconfirm
          title={t('invoices.issueTitle')}
          description={t('invoices.issueConfirm')}
          okText={t('invoices.issue')}
          cancelText={t('actions.cancel', { ns: 'ui' })}
          onConfirm={() => run('issue')}
        >
          <Button type="primary" icon={<CheckOutlined />} loading={act.isPending}>
            {t('invoices.issue')}
          </Button>
        </Popconfirm>
      )}
      {open && row.kind === 'invoice' && may('creditNote') && (
        <Button icon={<RollbackOutlined />} onClick={() => setAsking('creditNote')}>
          {t('invoices.creditNote')}
        </Button>
      )}
      {row.state !== 'void' && may('void') && (
        <Button danger icon={<StopOutlined />} onClick={() => setAsking('void')}>
          {t('invoices.void')}
        </Button>
      )}
      <Button icon={<PrinterOutlined />} onClick={() => navigate(printPath(row.id))}>
        {t('invoices.print')}
      </Button>
      {asking && (
        <ReasonDialog
          title={t(asking === 'void' ? 'invoices.voidTitle' : 'invoices.creditNoteTitle')}
          pending={act.isPending}
          onCancel={() => setAsking(null)}
          onOk={(reason) => run(asking, { reason })}
        />
      )}
    </Space>
  );
}

function ReasonDialog({
  title,
  pending,
  onOk,
  onCancel,
}: {
  title: string;
  pending: boolean;
  onOk: (reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('legal');
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open
      title={title}
      okButtonProps={{ loading: pending }}
      onCancel={onCancel}
      onOk={() => form.validateFields().then(({ reason }) => onOk(reason))}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('invoices.reason')}
          rules={[{ required: true, whitespace: true, message: t('invoices.reasonRequired') }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
