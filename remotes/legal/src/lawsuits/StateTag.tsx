import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { EntityRow } from '@mizan/ui';
import { useLawsuitOutcomes, type LawsuitOutcome } from './useLawsuitCases';

const OUTCOME_COLOR: Record<LawsuitOutcome, string> = { won: 'green', lost: 'red', ongoing: 'gold' };

/** The words of a lawsuit's state: "active", or "completed: <outcome of its final case>". */
export function stateText(row: EntityRow, outcome: LawsuitOutcome | undefined, t: TFunction): string {
  const state = row.state === 'completed' ? 'completed' : 'active';
  const label = t(`lawsuits.values.state.${state}`, { ns: 'entities' });
  if (state === 'active' || !outcome) return label;
  return t('lawsuits.state.withOutcome', {
    ns: 'legal',
    state: label,
    outcome: t(`lawsuitCases.values.outcome.${outcome}`, { ns: 'entities' }),
  });
}

/** A lawsuit's state as a tag: active in blue; completed in the colour of its outcome (won, lost). */
export function LawsuitStateTag({ row }: { row: EntityRow }) {
  const { t } = useTranslation('legal');
  const outcomes = useLawsuitOutcomes();
  const caseId = typeof row.lawsuitCaseId === 'number' ? row.lawsuitCaseId : undefined;
  const outcome = caseId === undefined ? undefined : outcomes.get(caseId);
  const completed = row.state === 'completed';
  const color = completed ? (outcome ? OUTCOME_COLOR[outcome] : 'default') : 'blue';
  return (
    <Tag color={color} style={{ marginInlineEnd: 0 }}>
      {stateText(row, completed ? outcome : undefined, t)}
    </Tag>
  );
}
