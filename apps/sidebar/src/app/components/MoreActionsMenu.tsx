import { Item, Menu } from '@zendeskgarden/react-dropdowns';
import { useI18n } from '../hooks/useI18n';
import type { TIncidentActionId } from '../lib/statusActions';

interface Props {
  actions: TIncidentActionId[];
  disabled: boolean;
  onSelect: (action: TIncidentActionId) => void;
}

/** The actions that apply but are not the next step: a tertiary menu, never primary buttons. */
export function MoreActionsMenu({ actions, disabled, onSelect }: Props) {
  const { t } = useI18n();
  if (actions.length === 0) return null;
  return (
    <Menu
      button={t('actions.more')}
      buttonProps={{ size: 'small', isBasic: true, disabled }}
      onChange={({ value, isExpanded }) => {
        // onChange also reports focus moves and expansion; a chosen item comes with the menu closing.
        if (value === undefined || isExpanded !== false) return;
        const chosen = actions.find((a) => a === value);
        if (chosen) onSelect(chosen);
      }}
    >
      {actions.map((action) => (
        <Item key={action} value={action} type={action === 'safe' ? 'danger' : undefined}>
          {t(`actions.${action}.button`)}
        </Item>
      ))}
    </Menu>
  );
}
