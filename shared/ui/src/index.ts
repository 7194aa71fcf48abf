/**
 * @mizan/ui: the generic entity screens derived from one `defineEntity(...)` definition, the
 * field-type registry behind them, dual Hijri/Gregorian dates, uploads and import/export.
 */
export { EntityPage, type EntityPageProps } from './entity/EntityPage';
export {
  useEntityList,
  type EntityList,
  type EntityListOptions,
  type EntityPermissionAction,
} from './entity/useEntityList';
export { EntityTable, type EntityTableProps } from './entity/EntityTable';
export {
  useEntityForm,
  type EntityFormOptions,
  type EntityFormState,
  type RemoteChange,
} from './entity/useEntityForm';
export { EntityForm, type EntityFormProps, type EntityFormRenderProps } from './entity/EntityForm';
export { EntityFormDrawer, type EntityFormDrawerProps } from './entity/EntityFormDrawer';
export { ConflictDialog, type ConflictDialogProps } from './entity/ConflictDialog';
export {
  entityRoutes,
  entityElement,
  type EntityRoute,
  type EntityRouteOverride,
  type EntityRouteOverrides,
} from './entity/entityRoutes';
export {
  staleConflictOf,
  fieldDifferences,
  type ChangedBy,
  type FieldDifference,
  type StaleConflict,
} from './entity/conflict';
export { deriveColumns, type EntityColumn } from './entity/columns';
export { useEntityText, entityText, type EntityText } from './entity/labels';
export {
  useListState,
  toParams,
  type FixedFilterValue,
  type ListChange,
  type ListQuery,
  type ListStateOptions,
} from './entity/useListState';
export {
  formFieldNames,
  formToBody,
  initialFormValues,
  issueText,
  schemaFor,
  type FormMode,
} from './entity/formValues';
export {
  fieldRegistry,
  fieldKind,
  enumLabel,
  BooleanFilter,
  formatNumber,
  parseNumberInput,
} from './fields/registry';
export { RefSelect, type RefSelectProps } from './fields/RefSelect';
export { FilesInput, type FilesInputProps } from './fields/FilesInput';
export { checkFile, downloadStoredFile, formatSize, type FileProblem } from './fields/files';
export { refDisplayKey, refLabels, type RefLabel } from './fields/refs';
export type { EntityRow, FieldContext, FieldKind, FieldRegistry, FilterControlProps } from './fields/types';
export { DualDate, type DualDateProps } from './dates/DualDate';
export { formatHijri, fromHijri, toHijri, type HijriDay } from './dates/hijri';
export {
  calendarOf,
  currentDateStyle,
  exportDate,
  formatDateParts,
  formatDateText,
  localizeDigits,
  type Calendar,
  type DateParts,
  type DateStyle,
  type ExportDate,
} from './dates/format';
export { useDateStyle } from './dates/useDateStyle';
export { DateInput, usePickerLocale, type DateInputProps } from './dates/DateInput';
export { DATE_FORMAT, DATETIME_FORMAT, ISO_DATE_FORMAT, parseDateValue, toDateValue } from './dates/dayjs';
export { ExportButton, type ExportButtonProps, type ExportColumn } from './export/ExportButton';
export {
  toCsv,
  csvBlob,
  xlsxBlob,
  exportFileName,
  BOM,
  type ExportSheet,
  type ExportValue,
} from './export/exportFile';
export { saveBlob } from './export/saveBlob';
export { EntityImport, type EntityImportProps } from './import/EntityImport';
export type { ImportPreview, ImportResult, ImportRowError } from './import/importTypes';
