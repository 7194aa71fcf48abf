import { Descriptions, Flex, Grid, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { lawsuits } from '@mizan/contracts';
import { FieldValue, useEntityText, type EntityRow } from '@mizan/ui';
import { LAWSUIT_SECTIONS } from './LawsuitForm';
import { LawsuitStateTag } from './StateTag';

/**
 * A lawsuit's details by the sections of its form (file and court, parties, team and office,
 * money, subject and notes), each a description list; the state as its tag.
 */
export function LawsuitDetails({ row }: { row: EntityRow }) {
  const { t } = useTranslation('legal');
  const text = useEntityText(lawsuits);
  const narrow = Grid.useBreakpoint().sm === false;
  return (
    <Flex vertical gap={16}>
      {LAWSUIT_SECTIONS.map((section) => (
        <section key={section.key} aria-labelledby={`lawsuit-details-${section.key}`}>
          <Typography.Title level={5} id={`lawsuit-details-${section.key}`} style={{ marginBlockStart: 0 }}>
            {t(`lawsuits.form.sections.${section.key}`)}
          </Typography.Title>
          <Descriptions
            bordered
            size="small"
            layout={narrow ? 'vertical' : 'horizontal'}
            column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }}
            items={[
              ...section.fields.map((name) => {
                const ctx = text.context(name);
                return {
                  key: name,
                  label: ctx.label,
                  children: <FieldValue ctx={ctx} row={row} />,
                  span: ctx.field.type === 'text' ? ('filled' as const) : 1,
                };
              }),
              ...(section.key === 'file'
                ? [{ key: 'state', label: text.label('state'), children: <LawsuitStateTag row={row} /> }]
                : []),
            ]}
          />
        </section>
      ))}
    </Flex>
  );
}
