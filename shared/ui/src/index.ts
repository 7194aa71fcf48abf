/**
 * @mizan/ui: the generic entity screens derived from one `defineEntity(...)` definition, the
 * field-type registry behind them, dual Hijri/Gregorian dates, uploads and import/export.
 */
export { EntityPage, type EntityPageProps } from './entity/EntityPage';
export {
  EntityFormDrawer,
  type EntityFormDrawerProps,
  type EntityFormRenderProps,
} from './entity/EntityFormDrawer';
export { deriveColumns, type EntityColumn } from './entity/columns';
export { useEntityText, entityText, type EntityText } from './entity/labels';
export { useListState, toParams, type ListQuery } from './entity/useListState';
export {
  formFieldNames,
  formToBody,
  initialFormValues,
  issueText,
  schemaFor,
  type FormMode,
} from './entity/formValues';
export { fieldRegistry, fieldKind, enumLabel, BooleanFilter } from './fields/registry';
export { RefSelect, type RefSelectProps } from './fields/RefSelect';
export { FilesInput, type FilesInputProps } from './fields/FilesInput';
export { checkFile, downloadStoredFile, formatSize, type FileProblem } from './fields/files';
export { refDisplayKey, refLabels, type RefLabel } from './fields/refs';
export type { EntityRow, FieldContext, FieldKind, FieldRegistry, FilterControlProps } from './fields/types';
export { DualDate, type DualDateProps } from './dates/DualDate';
export { formatHijri } from './dates/hijri';
export { formatDateText } from './dates/format';
export { DATE_FORMAT, DATETIME_FORMAT, ISO_DATE_FORMAT, parseDateValue, toDateValue } from './dates/dayjs';
export { ExportButton, type ExportButtonProps, type ExportColumn } from './export/ExportButton';
export { toCsv, csvBlob, xlsxBlob, exportFileName, BOM, type ExportSheet } from './export/exportFile';
export { saveBlob } from './export/saveBlob';
export { EntityImport, type EntityImportProps } from './import/EntityImport';
export type { ImportPreview, ImportResult, ImportRowError } from './import/importTypes';
