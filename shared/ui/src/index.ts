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
  recordElement,
  type EntityRoute,
  type EntityRouteOverride,
  type EntityRouteOverrides,
  type RecordRouteOverride,
} from './entity/entityRoutes';
export { RecordPage, type RecordPageProps } from './record/RecordPage';
export { RecordFields, FieldValue, readableFields, type RecordFieldsProps } from './record/RecordFields';
export {
  deriveRecordTabs,
  recordReferences,
  titleOf,
  type RecordTab,
  type RecordTabContext,
} from './record/tabs';
export { ReferenceList, type ReferenceListProps } from './record/ReferenceList';
export { RecordFiles, filesFields, type RecordFilesProps } from './record/RecordFiles';
export { BatchDocumentsButton, GenerateDocumentButton, documentRecordKind } from './record/GenerateDocument';
export { FilesContentSearch, type FilesContentSearchProps } from './record/FilesContentSearch';
export { RecordHistory, type RecordHistoryProps } from './record/RecordHistory';
export { AuditAction } from './record/auditAction';
export {
  AuditDiff,
  AuditValue,
  auditFieldLabel,
  displayKeys,
  type AuditDiffProps,
  type AuditValueProps,
} from './record/AuditDiff';
export { diffRows, displayValue, type FieldChange } from './record/diff';
export { recordPath, recordEditPath, recordRoute, parseRecordId } from './record/paths';
export {
  staleConflictOf,
  fieldDifferences,
  type ChangedBy,
  type FieldDifference,
  type StaleConflict,
} from './entity/conflict';
export { COLUMN_WIDTHS, columnFit, deriveColumns, type ColumnFit, type EntityColumn } from './entity/columns';
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
  formatMoney,
  durationWords,
  parseNumberInput,
  textCount,
  textLimit,
} from './fields/registry';
export { formatNumber } from './fields/numbers';
export { RefSelect, type RefSelectProps } from './fields/RefSelect';
export { ListFilter } from './fields/ListFilter';
export { matchesFolded } from './fields/matchText';
export { useDebouncedValue } from './fields/useDebouncedValue';
export { FilesInput, type FilesInputProps } from './fields/FilesInput';
export {
  checkFile,
  fileLimitBytes,
  downloadStoredFile,
  formatSize,
  multipartLayout,
  fileFractions,
  type FileProblem,
  type FileUpload,
} from './fields/files';
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
export { officeTimeZone, officeToday, useOfficeToday } from './dates/officeToday';
export {
  DateInput,
  TypedDatePicker,
  isUnreadableDate,
  unreadableDateRule,
  usePickerLocale,
  type DateInputProps,
} from './dates/DateInput';
export { parseTypedDate, type TypedDate } from './dates/typedDate';
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
export { ConflictPanel, type ConflictPanelProps } from './parties/ConflictPanel';
export { CONFLICT_DEBOUNCE_MS, useConflicts } from './parties/useConflicts';
export { SessionLine } from './security/SessionLine';
export {
  MessagesTable,
  SendMessageForm,
  messagesKey,
  type MessagesOf,
  type MessagesTableProps,
  type SendMessageFormProps,
} from './messages/ClientMessages';
export {
  DateRangeFilter,
  rangeReversed,
  type DateRange,
  type DateRangeFilterProps,
} from './dates/DateRangeFilter';
