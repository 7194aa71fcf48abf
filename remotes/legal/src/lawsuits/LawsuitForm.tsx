import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { Col, Divider, Form, Row } from 'antd';
import type { FormInstance, FormItemProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EntityFormRenderProps, RefSelectProps } from '@mizan/ui';
import { ProcurationWarning } from '../procurations/ProcurationWarning';

/** The form's sections, in order, each with its fields; a field of no section goes last. */
export const LAWSUIT_SECTIONS = [
  {
    key: 'file',
    fields: [
      'fileNumber',
      'caseNumber',
      'caseYear',
      'filingDate',
      'lawsuitTypeId',
      'lawsuitCaseId',
      'courtId',
      'circuitId',
      'judgeId',
    ],
  },
  { key: 'parties', fields: ['customerIds', 'ownerTypeId', 'opponentIds'] },
  { key: 'team', fields: ['lawyerIds', 'branchId', 'administrativeSectionId'] },
  { key: 'money', fields: ['claimAmount', 'agreedFee', 'hourlyRate'] },
  { key: 'subject', fields: ['subject', 'notes'] },
] as const;

/** Fields that take the whole width (long text, several references). */
const WIDE = new Set(['subject', 'notes', 'customerIds', 'opponentIds', 'lawyerIds']);

type Item = ReactElement<FormItemProps & { children: ReactElement<RefSelectProps> }>;

/**
 * A ready `Form.Item` with props of its own and of its input (`RefSelect`'s `filter`,
 * `disabled`, `onChange`: the form's own change handler still runs first).
 */
function adjust(node: ReactNode, item: Partial<FormItemProps>, input: Partial<RefSelectProps>): ReactNode {
  if (!isValidElement(node)) return node;
  const formItem = node as Item;
  const child = formItem.props.children;
  return cloneElement(formItem, item, isValidElement(child) ? cloneElement(child, input) : child);
}

const idOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** Clears dependent fields when the one they depend on is changed by the user. */
const clearing = (form: FormInstance, fields: string[]) => () =>
  form.setFields(fields.map((name) => ({ name, value: null, errors: [] })));

/**
 * The lawsuit form by sections (file and court, parties, team and office, money, subject and
 * notes). The court, circuit and judge cascade: the circuits offered are the chosen court's, the
 * judges the chosen circuit's, and choosing another court clears the circuit and judge (another
 * circuit clears the judge), as the server refuses a circuit of another court. Under the parties,
 * a client with no power of attorney covering litigation on the filing day (else today) is named. A server 422 lands
 * on its field through the derived items.
 */
export function LawsuitForm({ form, items, mode }: EntityFormRenderProps) {
  const { t } = useTranslation('legal');
  const courtId = idOf(Form.useWatch('courtId', form));
  const circuitId = idOf(Form.useWatch('circuitId', form));
  const customerIds: unknown = Form.useWatch('customerIds', form);
  const filingDate: unknown = Form.useWatch('filingDate', form);
  const clients = Array.isArray(customerIds)
    ? customerIds.filter((id): id is number => typeof id === 'number')
    : [];

  const shown: Record<string, ReactNode> = {
    ...items,
    // Generated only on create: an existing lawsuit keeps its number (blanking it is refused).
    fileNumber:
      mode === 'create'
        ? adjust(items.fileNumber, { extra: t('lawsuits.form.fileNumberHelp') }, {})
        : items.fileNumber,
    courtId: adjust(items.courtId, {}, { onChange: clearing(form, ['circuitId', 'judgeId']) }),
    circuitId: adjust(
      items.circuitId,
      { extra: courtId === undefined ? t('lawsuits.form.courtFirst') : undefined },
      {
        filter: courtId === undefined ? undefined : { courtId },
        disabled: courtId === undefined,
        onChange: clearing(form, ['judgeId']),
      },
    ),
    judgeId: adjust(items.judgeId, {}, { filter: circuitId === undefined ? undefined : { circuitId } }),
  };

  const placed = new Set<string>(LAWSUIT_SECTIONS.flatMap((s) => s.fields));
  const rest = Object.keys(shown).filter((key) => !placed.has(key));
  const section = (key: string, fields: readonly string[]) => {
    const present = fields.filter((name) => shown[name] !== undefined);
    if (present.length === 0) return null;
    return (
      <section key={key} aria-labelledby={`lawsuit-section-${key}`}>
        <Divider titlePlacement="start" style={{ marginBlockStart: 8 }}>
          <span id={`lawsuit-section-${key}`}>{t(`lawsuits.form.sections.${key}`)}</span>
        </Divider>
        <Row gutter={16}>
          {present.map((name) => (
            <Col key={name} xs={24} md={WIDE.has(name) ? 24 : 12}>
              {shown[name]}
            </Col>
          ))}
        </Row>
        {key === 'parties' && clients.length > 0 && (
          <ProcurationWarning
            customerIds={clients}
            date={filingDate as Parameters<typeof ProcurationWarning>[0]['date']}
          />
        )}
      </section>
    );
  };

  return (
    <>
      {LAWSUIT_SECTIONS.map((s) => section(s.key, s.fields))}
      {rest.length > 0 && (
        <Row gutter={16}>
          {rest.map((name) => (
            <Col key={name} xs={24}>
              {shown[name]}
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
