import { useState } from 'react';
import { Alert, Button, Descriptions, Form, InputNumber, List, Modal, Segmented, Select, Space } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COUNTRY_CODES,
  DEADLINE_ROUTES,
  PERIOD_CALENDARS,
  PERIOD_SHIFTS,
  PERIOD_UNITS,
  type PeriodQuery,
} from '@mizan/contracts';
import { api, isApiError } from '@mizan/sdk';
import { DateInput, DualDate, toDateValue, useOfficeToday } from '@mizan/ui';
import dayjs, { type Dayjs } from 'dayjs';

interface Values {
  from: Dayjs | null;
  amount: number | null;
  unit: (typeof PERIOD_UNITS)[number];
  calendar: (typeof PERIOD_CALENDARS)[number];
  shift: (typeof PERIOD_SHIFTS)[number];
  country?: (typeof COUNTRY_CODES)[number];
}

/**
 * The date calculator of the calendar screen: from a day, N days or months (Hijri or Gregorian),
 * the due date in both calendars on the office's working calendar, and each day skipped (weekend
 * or holiday) when the last day was not a working one. Counted by the server
 * (`GET /api/admin/deadlines/calculate`), the same function deadlines use.
 */
export function DateCalculator() {
  const { t } = useTranslation(['legal', 'entities', 'ui', 'validation']);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const today = useOfficeToday();
  const label = (field: string) => t(`legal:calculator.fields.${field}`);
  const calculate = useMutation({
    mutationFn: (values: Values) => {
      const query: PeriodQuery = {
        from: toDateValue(values.from, 'date') ?? '',
        amount: values.amount ?? 0,
        unit: values.unit,
        calendar: values.calendar,
        shift: values.shift,
        ...(values.country ? { country: values.country } : {}),
      };
      return api.call(DEADLINE_ROUTES.calculate, { query }, { silent: true });
    },
    onError: (error) => {
      const errors = isApiError(error) ? error.errors : {};
      form.setFields(
        (['from', 'amount', 'unit', 'calendar', 'country', 'shift'] as const)
          .filter((name) => (errors[name] ?? []).length > 0)
          .map((name) => ({ name, errors: errors[name]!.slice(0, 1) })),
      );
    },
  });
  const result = calculate.data;

  return (
    <>
      <Button icon={<CalculatorOutlined />} onClick={() => setOpen(true)}>
        {t('legal:calculator.open')}
      </Button>
      <Modal
        open={open}
        title={t('legal:calculator.title')}
        okText={t('legal:calculator.calculate')}
        cancelText={t('ui:actions.close')}
        confirmLoading={calculate.isPending}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
      >
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{
            from: dayjs(today),
            amount: 30,
            unit: 'days',
            calendar: 'gregorian',
            shift: 'next',
          }}
          onFinish={(values) => calculate.mutate(values)}
        >
          <Space wrap align="start">
            <Form.Item
              name="from"
              label={label('from')}
              rules={[{ required: true, message: t('validation:required', { label: label('from') }) }]}
            >
              <DateInput />
            </Form.Item>
            <Form.Item
              name="amount"
              label={label('amount')}
              rules={[
                { required: true, message: t('validation:required', { label: label('amount') }) },
                {
                  type: 'integer',
                  min: 1,
                  message: t('validation:number.min', { label: label('amount'), min: 1 }),
                },
              ]}
            >
              <InputNumber precision={0} style={{ width: 120 }} aria-label={label('amount')} />
            </Form.Item>
          </Space>
          <Form.Item name="unit" label={label('unit')}>
            <Segmented
              options={PERIOD_UNITS.map((v) => ({
                value: v,
                label: t(`entities:deadlineRules.values.unit.${v}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="calendar" label={label('calendar')}>
            <Segmented
              options={PERIOD_CALENDARS.map((v) => ({
                value: v,
                label: t(`entities:deadlineRules.values.calendar.${v}`),
              }))}
            />
          </Form.Item>
          <Space wrap align="start">
            <Form.Item name="country" label={label('country')}>
              <Select
                aria-label={label('country')}
                placeholder={t('legal:calculator.officeCountry')}
                allowClear
                style={{ minWidth: 160 }}
                options={COUNTRY_CODES.map((c) => ({
                  value: c,
                  label: t(`entities:holidays.values.country.${c}`),
                }))}
              />
            </Form.Item>
            <Form.Item name="shift" label={label('shift')}>
              <Select
                aria-label={label('shift')}
                style={{ minWidth: 220 }}
                options={PERIOD_SHIFTS.map((v) => ({
                  value: v,
                  label: t(`entities:deadlineRules.values.shift.${v}`),
                }))}
              />
            </Form.Item>
          </Space>
        </Form>
        {result && (
          <Descriptions column={1} bordered size="small" aria-label={t('legal:calculator.result')}>
            <Descriptions.Item label={t('legal:calculator.due')}>
              <span data-testid="calculator-due">
                <DualDate value={result.due} />
              </span>
            </Descriptions.Item>
            {result.shiftedFrom && (
              <Descriptions.Item label={t('legal:calculator.shiftedFrom')}>
                <DualDate value={result.shiftedFrom} />
              </Descriptions.Item>
            )}
            {result.skipped.length > 0 && (
              <Descriptions.Item label={t('legal:calculator.skipped')}>
                <List
                  size="small"
                  dataSource={result.skipped}
                  renderItem={(day) => (
                    <List.Item>
                      <DualDate value={day.date} primaryOnly />{' '}
                      {day.reason === 'holiday' ? day.holiday : t('legal:calculator.weekend')}
                    </List.Item>
                  )}
                />
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
        {calculate.isError && !isApiError(calculate.error) && (
          <Alert type="error" title={calculate.error.message} />
        )}
      </Modal>
    </>
  );
}
