import { loadExcel } from '../files/excel';
import type { Entity, Fields } from '@mizan/contracts';
import { getEntity } from '@mizan/contracts';
import { fieldLabel, translate, type Lang } from '../http/messages';
import { enumLabel, importableFields } from './mapping';

/** Template columns: the translated label of each importable field (and status), `*` on required ones. */
export function templateHeaders(entity: Entity<Fields>, lang: Lang): string[] {
  const headers = importableFields(entity).map(([key, field]) => {
    const label = fieldLabel(lang, entity.name, key);
    return field.required && field.default === undefined ? `${label}*` : label;
  });
  if (entity.status) headers.push(fieldLabel(lang, entity.name, 'status'));
  return headers;
}

/** What a column accepts, for the instructions sheet. */
function hint(entity: Entity<Fields>, key: string, lang: Lang): string {
  const field = entity.fields[key];
  if (!field) return translate(lang, 'import.booleanHint');
  switch (field.type) {
    case 'enum':
      return field.values.map((v) => enumLabel(entity, key, v, lang)).join(' / ');
    case 'boolean':
      return translate(lang, 'import.booleanHint');
    case 'date':
      return translate(lang, 'import.dateHint');
    case 'money':
      // An amount in major units, as the column takes it (grouping and two decimals optional).
      return '1,234.50';
    case 'duration':
      // Hours and minutes, or decimal hours (the column takes both).
      return '1:30';
    case 'ref':
      return translate(lang, 'import.refHint', {
        label: fieldLabel(lang, getEntity(field.entity).name, getEntity(field.entity).titleField),
      });
    case 'refs':
      return `${translate(lang, 'import.refHint', { label: fieldLabel(lang, entity.name, key) })} (${translate(lang, 'import.listHint')})`;
    default:
      return 'max' in field && field.max ? `≤ ${field.max}` : '';
  }
}

/** A CSV template: UTF-8 with a BOM (so Excel shows Arabic correctly), one header row. */
export function csvTemplate(entity: Entity<Fields>, lang: Lang): Buffer {
  const line = templateHeaders(entity, lang)
    .map((h) => (/[",\n;]/.test(h) ? `"${h.replace(/"/g, '""')}"` : h))
    .join(',');
  return Buffer.from(`\uFEFF${line}\r\n`, 'utf8');
}

/**
 * Built templates by definition and language: a template depends on nothing else, and building one
 * costs the event loop about half a second of ExcelJS (every other request waited on it).
 */
const builtTemplates = new WeakMap<Entity<Fields>, Map<Lang, Promise<Buffer>>>();

/** An XLSX template: the header row on the first sheet (the one imported), instructions on a second. */
export function xlsxTemplate(entity: Entity<Fields>, lang: Lang): Promise<Buffer> {
  let byLang = builtTemplates.get(entity);
  if (!byLang) builtTemplates.set(entity, (byLang = new Map()));
  let built = byLang.get(lang);
  if (!built) {
    built = buildXlsxTemplate(entity, lang);
    byLang.set(lang, built);
    built.catch(() => byLang.delete(lang));
  }
  return built;
}

async function buildXlsxTemplate(entity: Entity<Fields>, lang: Lang): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  const rtl = lang === 'ar';
  const sheet = workbook.addWorksheet(entity.name, {
    views: [{ rightToLeft: rtl, state: 'frozen', ySplit: 1 }],
  });
  const headers = templateHeaders(entity, lang);
  sheet.addRow(headers);
  sheet.getRow(1).font = { bold: true };
  headers.forEach((h, i) => (sheet.getColumn(i + 1).width = Math.max(14, h.length + 4)));

  const help = workbook.addWorksheet(translate(lang, 'import.instructions'), {
    views: [{ rightToLeft: rtl }],
  });
  help.addRow([
    translate(lang, 'import.column'),
    translate(lang, 'import.required'),
    translate(lang, 'import.accepted'),
  ]);
  help.getRow(1).font = { bold: true };
  const columns: [string, boolean][] = importableFields(entity).map(([key, field]) => [
    key,
    Boolean(field.required && field.default === undefined),
  ]);
  if (entity.status) columns.push(['status', false]);
  for (const [key, required] of columns) {
    help.addRow([
      fieldLabel(lang, entity.name, key),
      translate(lang, required ? 'import.required' : 'import.optional'),
      hint(entity, key, lang),
    ]);
  }
  help.columns.forEach((c) => (c.width = 30));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
