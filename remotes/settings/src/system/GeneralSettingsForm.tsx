import { Button, Card, Col, Form, Input, InputNumber, Row, Segmented, Select, Space, Switch } from 'antd';
import {
  ConflictDialog,
  staleConflictOf,
  type FieldDifference,
  type StaleConflict,
  textCount,
} from '@mizan/ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validationMessage } from '@mizan/i18n';
import { rulesFor } from '../common/validation';
import {
  CALENDARS,
  COUNTRY_CODES,
  CURRENCY_CODES,
  LANGUAGES,
  LIMITS,
  normalizeDays,
  normalizeTime,
  PHONE_PATTERN,
  PROCURATION_CHECK_MODES,
  reminderDays,
  THEMES,
  TIME_OF_DAY_PATTERN,
  timeZoneChoices,
  toPayload,
  validReminderDays,
  VAT_ROUNDINGS,
  type GeneralSettings,
  type GeneralSettingsPayload,
} from './generalSettings';

export interface GeneralSettingsFormProps {
  initialValues: GeneralSettings;
  onSubmit: (values: GeneralSettingsPayload) => Promise<unknown>;
  /** Without `systemSettings.update` the form is read-only. */
  canEdit: boolean;
  saving?: boolean;
  /** Field messages of a 422 answer, shown under their fields. */
  fieldErrors?: Record<string, string[]>;
  /** The last save's failure: a stale one (409, saved elsewhere meanwhile) opens the conflict dialog. */
  error?: unknown;
}

/** The fields a save sends, in the form's order (for the differences of a conflict). */
const FIELDS = [
  'officeName',
  'email',
  'phone',
  'address',
  'defaultLanguage',
  'defaultTheme',
  'calendar',
  'timeZone',
  'sessionLifetimeHours',
  'passwordMinLength',
  'passwordRequireDigits',
  'passwordRequireSymbols',
  'reminderEveningTime',
  'reminderMorningTime',
  'procurationReminderDays',
  'officeCountry',
  'weekendDays',
  'deadlineReminderDays',
  'procurationCheck',
  'backupTime',
  'backupKeep',
  'textMaxPages',
  'textSecondsPerPage',
  'textConcurrency',
  'maxUploadMb',
  'currency',
  'vatNumber',
  'vatRate',
  'vatRounding',
] as const satisfies readonly (keyof ReturnType<typeof toPayload>)[];

/** Office identity, localisation and security policy: one form, saved as a whole. */
export function GeneralSettingsForm({
  initialValues,
  onSubmit,
  canEdit,
  saving,
  fieldErrors,
  error,
}: GeneralSettingsFormProps) {
  const { t, i18n } = useTranslation(['settings', 'ui', 'entities']);
  // Weekday names from the calendar itself (4 January 1970 was a Sunday), in the interface language.
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' });
  const weekdayName = (day: number) => weekday.format(new Date(Date.UTC(1970, 0, 4 + day)));
  /** Reminder thresholds: whole numbers within `limits`, at most `count` of them. */
  const daysRule = (field: 'procurationReminderDays' | 'deadlineReminderDays') => ({
    validator: async (_rule: unknown, values: (number | string)[] | undefined) => {
      if (validReminderDays(values ?? [], LIMITS[field])) return;
      const { min, max, count } = LIMITS[field];
      throw new Error(
        reminderDays(values ?? []).length > count
          ? validationMessage(t, 'array.max', { label: label(field), max: count })
          : validationMessage(t, 'number.range', { label: label(field), min, max }),
      );
    },
  });
  /** Reminder days typed as tags ("30, 7, 1"), checked by `daysRule`. */
  const daysItem = (field: 'procurationReminderDays' | 'deadlineReminderDays') => (
    <Form.Item
      name={field}
      label={label(field)}
      extra={t(`system.general.hints.${field}`)}
      normalize={normalizeDays}
      rules={[daysRule(field)]}
    >
      <Select
        aria-label={label(field)}
        mode="tags"
        open={false}
        suffixIcon={null}
        tokenSeparators={[',', '،', ' ']}
      />
    </Form.Item>
  );
  /** A time of day typed `HH:mm` (Arabic-Indic digits read), checked by `timeRules`. */
  const timeItem = (
    field: 'reminderEveningTime' | 'reminderMorningTime' | 'backupTime',
    placeholder: string,
  ) => (
    <Form.Item
      name={field}
      label={label(field)}
      extra={t(`system.general.hints.${field}`)}
      normalize={normalizeTime}
      rules={timeRules(field)}
    >
      <Input dir="ltr" inputMode="numeric" placeholder={placeholder} maxLength={5} />
    </Form.Item>
  );
  const [form] = Form.useForm<GeneralSettings>();
  const label = (field: string) => t(`system.general.fields.${field}`);
  const rules = (field: string) => rulesFor(t, label(field));
  /** A reminder time: required, `HH:mm` on the 24-hour clock. */
  const timeRules = (field: string) => [
    rules(field).required(),
    { pattern: TIME_OF_DAY_PATTERN, message: validationMessage(t, 'types.time', { label: label(field) }) },
  ];

  // Refill the form only when the stored settings really changed (a save here or elsewhere), not
  // each time the query hands over an equal copy, which would wipe what the user is typing.
  const applied = useRef(JSON.stringify(initialValues));
  /** The version the next save claims to be based on. */
  const version = useRef(initialValues.updatedAt);
  useEffect(() => {
    const next = JSON.stringify(initialValues);
    if (next === applied.current) return;
    applied.current = next;
    version.current = initialValues.updatedAt;
    form.setFieldsValue(initialValues);
  }, [form, initialValues]);
  const [conflict, setConflict] = useState<StaleConflict<GeneralSettings> | null>(null);
  useEffect(() => setConflict(staleConflictOf<GeneralSettings>(error) ?? null), [error]);

  /** A time zone by its translated city and country; one the list does not name, by its IANA name. */
  const zoneLabel = (zone: string) =>
    t(`timeZones.zones.${zone}`, { defaultValue: t('timeZones.other', { zone }) });
  /** A value as the form shows it: choices by their label, switches as yes/no. */
  const display = (field: string, value: unknown): string => {
    if (typeof value === 'boolean') return t(value ? 'values.yes' : 'values.no', { ns: 'ui' });
    if (field === 'weekendDays' && Array.isArray(value))
      return value.map((d) => weekdayName(Number(d))).join('، ');
    if (Array.isArray(value)) return value.join('، ');
    if (value === null || value === undefined) return '';
    if (field === 'timeZone') return zoneLabel(String(value));
    if (field === 'officeCountry') return t(`entities:holidays.values.country.${String(value)}`);
    if (field === 'procurationCheck') return t(`system.general.procurationChecks.${String(value)}`);
    const choice = { defaultLanguage: 'languages', defaultTheme: 'themes', calendar: 'calendars' }[field];
    return choice ? t(`system.general.${choice}.${String(value)}`) : String(value);
  };
  const differences = (current: GeneralSettings): FieldDifference[] => {
    const mine = toPayload({ ...initialValues, ...form.getFieldsValue(true) });
    const theirs = toPayload({ ...initialValues, ...current });
    return FIELDS.filter((f) => JSON.stringify(mine[f] ?? null) !== JSON.stringify(theirs[f] ?? null)).map(
      (f) => ({ field: f, label: label(f), mine: display(f, mine[f]), theirs: display(f, theirs[f]) }),
    );
  };
  useEffect(() => {
    if (fieldErrors)
      form.setFields(
        Object.entries(fieldErrors).map(([name, errors]) => ({
          name: name as keyof GeneralSettings,
          errors,
        })),
      );
  }, [form, fieldErrors]);

  return (
    <>
      <Form<GeneralSettings>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        disabled={!canEdit || saving}
        onFinish={(values) =>
          onSubmit({
            ...toPayload({ ...initialValues, ...values }),
            ...(version.current ? { updatedAt: version.current } : {}),
          })
        }
        scrollToFirstError
      >
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Card title={t('system.general.sections.office')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="officeName"
                  label={label('officeName')}
                  rules={[rules('officeName').required(), rules('officeName').max(LIMITS.officeName.max)]}
                >
                  <Input {...textCount(LIMITS.officeName.max)} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="email"
                  label={label('email')}
                  rules={[rules('email').email(), rules('email').max(LIMITS.email.max)]}
                >
                  <Input type="email" dir="ltr" autoComplete="email" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="phone"
                  label={label('phone')}
                  rules={[rules('phone').pattern(PHONE_PATTERN), rules('phone').max(LIMITS.phone.max)]}
                >
                  <Input dir="ltr" inputMode="tel" autoComplete="tel" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="address"
                  label={label('address')}
                  rules={[rules('address').max(LIMITS.address.max)]}
                >
                  <Input {...textCount(LIMITS.address.max)} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.display')}>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item
                  name="defaultLanguage"
                  label={label('defaultLanguage')}
                  rules={[rules('defaultLanguage').required()]}
                >
                  <Select
                    aria-label={label('defaultLanguage')}
                    options={LANGUAGES.map((v) => ({ value: v, label: t(`system.general.languages.${v}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="defaultTheme" label={label('defaultTheme')}>
                  <Segmented
                    block
                    options={THEMES.map((v) => ({ value: v, label: t(`system.general.themes.${v}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="calendar"
                  label={label('calendar')}
                  extra={t('system.general.hints.calendar')}
                >
                  <Segmented
                    block
                    options={CALENDARS.map((v) => ({ value: v, label: t(`system.general.calendars.${v}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name="timeZone"
                  label={label('timeZone')}
                  extra={t('timeZones.hint')}
                  rules={[rules('timeZone').required()]}
                >
                  <Select
                    aria-label={label('timeZone')}
                    showSearch
                    optionFilterProp="label"
                    options={timeZoneChoices(initialValues.timeZone).map((zone) => ({
                      value: zone,
                      label: zoneLabel(zone),
                    }))}
                  />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.security')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="sessionLifetimeHours"
                  label={label('sessionLifetimeHours')}
                  extra={t('system.general.hints.sessionLifetimeHours')}
                  rules={rules('sessionLifetimeHours').integer(
                    LIMITS.sessionLifetimeHours.min,
                    LIMITS.sessionLifetimeHours.max,
                  )}
                >
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="passwordMinLength"
                  label={label('passwordMinLength')}
                  rules={rules('passwordMinLength').integer(
                    LIMITS.passwordMinLength.min,
                    LIMITS.passwordMinLength.max,
                  )}
                >
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="passwordRequireDigits"
                  label={label('passwordRequireDigits')}
                  valuePropName="checked"
                >
                  <Switch aria-label={label('passwordRequireDigits')} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="passwordRequireSymbols"
                  label={label('passwordRequireSymbols')}
                  valuePropName="checked"
                >
                  <Switch aria-label={label('passwordRequireSymbols')} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.reminders')}>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                {timeItem('reminderEveningTime', '18:00')}
              </Col>
              <Col xs={24} md={8}>
                {timeItem('reminderMorningTime', '07:00')}
              </Col>
              <Col xs={24} md={8}>
                {daysItem('procurationReminderDays')}
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.workingDays')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="officeCountry"
                  label={label('officeCountry')}
                  extra={t('system.general.hints.officeCountry')}
                  rules={[rules('officeCountry').required()]}
                >
                  <Select
                    aria-label={label('officeCountry')}
                    options={COUNTRY_CODES.map((c) => ({
                      value: c,
                      label: t(`entities:holidays.values.country.${c}`),
                    }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="weekendDays"
                  label={label('weekendDays')}
                  extra={t('system.general.hints.weekendDays')}
                >
                  <Select
                    aria-label={label('weekendDays')}
                    mode="multiple"
                    maxCount={6}
                    options={[0, 1, 2, 3, 4, 5, 6].map((d) => ({ value: d, label: weekdayName(d) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                {daysItem('deadlineReminderDays')}
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="procurationCheck"
                  label={label('procurationCheck')}
                  extra={t('system.general.hints.procurationCheck')}
                  rules={[rules('procurationCheck').required()]}
                >
                  <Select
                    aria-label={label('procurationCheck')}
                    options={PROCURATION_CHECK_MODES.map((mode) => ({
                      value: mode,
                      label: t(`system.general.procurationChecks.${mode}`),
                    }))}
                  />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.backups')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                {timeItem('backupTime', '02:00')}
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="backupKeep"
                  label={label('backupKeep')}
                  extra={t('system.general.hints.backupKeep')}
                  rules={rules('backupKeep').integer(LIMITS.backupKeep.min, LIMITS.backupKeep.max)}
                >
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card title={t('system.general.sections.fileText')}>
            <Row gutter={16}>
              {(['maxUploadMb', 'textMaxPages', 'textSecondsPerPage', 'textConcurrency'] as const).map(
                (field) => (
                  <Col xs={24} md={12} key={field}>
                    <Form.Item
                      name={field}
                      label={label(field)}
                      extra={t(`system.general.hints.${field}`)}
                      rules={rules(field).integer(LIMITS[field].min, LIMITS[field].max)}
                    >
                      <InputNumber style={{ width: '100%' }} precision={0} />
                    </Form.Item>
                  </Col>
                ),
              )}
            </Row>
          </Card>

          <Card title={t('system.general.sections.invoicing')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="currency"
                  label={label('currency')}
                  extra={t('system.general.hints.currency')}
                >
                  <Select
                    aria-label={label('currency')}
                    options={[
                      { value: null, label: t('system.general.currencyByCountry') },
                      ...CURRENCY_CODES.map((code) => ({ value: code, label: code })),
                    ]}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="vatNumber"
                  label={label('vatNumber')}
                  extra={t('system.general.hints.vatNumber')}
                  rules={[rules('vatNumber').max(LIMITS.vatNumber.max)]}
                >
                  <Input maxLength={LIMITS.vatNumber.max} dir="ltr" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="vatRate"
                  label={label('vatRate')}
                  extra={t('system.general.hints.vatRate')}
                  // Optional: empty takes the country's standard rate.
                  rules={rules('vatRate')
                    .integer(LIMITS.vatRate.min, LIMITS.vatRate.max)
                    .filter((rule) => !('required' in rule))}
                >
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="vatRounding"
                  label={label('vatRounding')}
                  extra={t('system.general.hints.vatRounding')}
                >
                  <Select
                    aria-label={label('vatRounding')}
                    options={VAT_ROUNDINGS.map((value) => ({
                      value,
                      label: t(`system.general.vatRoundings.${value}`),
                    }))}
                  />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          {canEdit && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                {t('actions.save')}
              </Button>
              <Button htmlType="button" onClick={() => form.resetFields()}>
                {t('actions.reset')}
              </Button>
            </Space>
          )}
        </Space>
      </Form>
      <ConflictDialog<GeneralSettings>
        conflict={conflict}
        subject={t('system.general.title')}
        differences={differences}
        onReload={(current) => {
          form.setFieldsValue(current);
          version.current = current.updatedAt;
          setConflict(null);
        }}
        onKeepMine={(current) => {
          version.current = current.updatedAt;
          setConflict(null);
        }}
        onClose={() => setConflict(null)}
      />
    </>
  );
}
