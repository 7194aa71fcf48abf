import { useContext, type ReactNode } from 'react';
import { Button, ConfigProvider, Drawer, Grid, Modal, Space } from 'antd';
import type { Entity, Fields } from '@mizan/contracts';
import type { EntityRow } from '../fields/types';
import { EntityForm, type EntityFormRenderProps } from './EntityForm';
import type { FormMode } from './formValues';
import { useEntityForm, type EntityFormOptions } from './useEntityForm';

export type { EntityFormRenderProps } from './EntityForm';

export interface EntityFormDrawerProps {
  entity: Entity<Fields>;
  open: boolean;
  mode: FormMode;
  row?: EntityRow;
  /** Field names to show; default every field of the definition (create-only ones only on create). */
  fields?: string[];
  renderForm?: (props: EntityFormRenderProps) => ReactNode;
  /** Sends the checked body; default the entity's own create/update route. */
  save?: EntityFormOptions['save'];
  /** Values a create form starts with (see `useEntityForm`'s `defaults`). */
  defaults?: EntityFormOptions['defaults'];
  onClose: () => void;
}

/**
 * `<EntityForm>` in a drawer sliding from the reading end. Closing it (Esc, the close button,
 * cancel, a click outside) with unsaved changes asks first; a successful save closes it.
 *
 * @example <EntityFormDrawer entity={courts} open={open} mode="update" row={court} onClose={close} />
 */
export function EntityFormDrawer({
  entity,
  open,
  mode,
  row,
  fields,
  renderForm,
  save,
  defaults,
  onClose,
}: EntityFormDrawerProps) {
  const state = useEntityForm(entity, {
    record: row,
    mode,
    fields,
    save,
    defaults,
    onSaved: onClose,
    active: open,
  });
  const { t } = state.text;
  const [modal, modalHolder] = Modal.useModal();
  const { direction } = useContext(ConfigProvider.ConfigContext);
  const screens = Grid.useBreakpoint();
  const requestClose = () => {
    if (!state.isDirty()) return onClose();
    void modal.confirm({
      title: t('unsaved.title', { ns: 'ui' }),
      content: t('unsaved.content', { ns: 'ui' }),
      okText: t('unsaved.discard', { ns: 'ui' }),
      cancelText: t('unsaved.keep', { ns: 'ui' }),
      okButtonProps: { danger: true },
      onOk: onClose,
    });
  };

  return (
    <>
      {modalHolder}
      <Drawer
        open={open}
        onClose={requestClose}
        destroyOnHidden
        // The drawer slides from the reading end: the left edge in Arabic, the right in English.
        placement={direction === 'rtl' ? 'left' : 'right'}
        size={screens.md ? 560 : '100%'}
        title={t(mode === 'create' ? 'form.createTitle' : 'form.editTitle', {
          ns: 'ui',
          name: state.text.singular,
        })}
        footer={
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={requestClose}>{t('actions.cancel', { ns: 'ui' })}</Button>
            <Button
              type="primary"
              loading={state.saving}
              disabled={state.disabled}
              title={t('form.saveHint', { ns: 'ui' })}
              onClick={() => void state.submit()}
            >
              {t('actions.save', { ns: 'ui' })}
            </Button>
          </Space>
        }
      >
        <EntityForm {...state} renderForm={renderForm} />
      </Drawer>
    </>
  );
}
